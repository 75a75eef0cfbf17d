/**
 * A real AI SDK 6 agent run (`generateText` with `experimental_telemetry`, a `MockLanguageModelV3` from
 * `ai/test` that calls a weather tool, then answers) traced by a real OTel SDK tracer provider and sent by
 * the real OTLP/protobuf (HTTP) or OTLP/gRPC trace exporter. The answer is chosen by the test, so it can contradict the tool.
 */
import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, type IdGenerator, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

let contextManagerInstalled = false;

/** The AI SDK nests its spans through the active context: install the async-hooks context manager once. */
function ensureContextManager(): void {
  if (contextManagerInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerInstalled = true;
}

/** Deterministic ids from a seed, so a test's trace ids are the same on every run. */
class SeededIds implements IdGenerator {
  private n = 0;
  constructor(private readonly seed: string) {}
  private next(len: number): string {
    this.n += 1;
    return createHash('sha256').update(`${this.seed}:${this.n}`).digest('hex').slice(0, len);
  }
  generateTraceId(): string {
    return this.next(32);
  }
  generateSpanId(): string {
    return this.next(16);
  }
}

const MODEL_ID = 'mock-gpt-4o';

const usage = (input: number, output: number): LanguageModelV3GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function steps(city: string, answer: string): LanguageModelV3GenerateResult[] {
  return [
    {
      content: [{ type: 'tool-call', toolCallId: 'call_weather_1', toolName: 'getWeather', input: JSON.stringify({ city }) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(120, 18),
      response: { id: 'resp-1', modelId: MODEL_ID, timestamp: new Date(Date.UTC(2026, 0, 1)) },
      warnings: [],
    },
    {
      content: [{ type: 'text', text: answer }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(180, 24),
      response: { id: 'resp-2', modelId: MODEL_ID, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 1)) },
      warnings: [],
    },
  ];
}

export interface WeatherRunOptions {
  /** OTLP/HTTP base URL of the receiver, e.g. `http://127.0.0.1:4318`. */
  otlpUrl: string;
  /** Send over OTLP/gRPC to this URL (e.g. `http://127.0.0.1:4317`) instead of OTLP/HTTP. */
  grpcUrl?: string;
  /** Seeds the trace and span ids. */
  seed: string;
  agentName?: string;
  city?: string;
  /** The tool's temperature in °C. */
  toolTemperatureC?: number;
  /** The final answer the mock model gives. */
  answer: string;
}

export interface WeatherRun {
  question: string;
  answer: string;
  toolResult: { city: string; temperatureC: number; condition: string };
  /** Every span the SDK ended, as exported. */
  spans: ReadableSpan[];
  traceId: string;
  /** The `ai.generateText` span: the agent run span. */
  agentSpanId: string;
}

/**
 * Run the weather agent once and export its spans over OTLP/protobuf to `otlpUrl`; resolves after the
 * exporter flushed (the receiver answered) with the spans that were sent.
 */
export async function runWeatherAgent(options: WeatherRunOptions): Promise<WeatherRun> {
  ensureContextManager();
  const city = options.city ?? 'Paris';
  const toolResult = { city, temperatureC: options.toolTemperatureC ?? 18, condition: 'light rain' };
  const question = `What is the weather in ${city} right now?`;
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'e2e-weather-app' }),
    idGenerator: new SeededIds(options.seed),
    spanProcessors: [
      new BatchSpanProcessor(
        options.grpcUrl
          ? new GrpcTraceExporter({ url: options.grpcUrl, timeoutMillis: 10_000 })
          : new OTLPTraceExporter({ url: `${options.otlpUrl}/v1/traces`, timeoutMillis: 10_000 }),
        { scheduledDelayMillis: 50 },
      ),
      new SimpleSpanProcessor(memory),
    ],
  });
  const getWeather = tool({
    description: 'Get the current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ city: asked }) => Promise.resolve({ ...toolResult, city: asked }),
  });
  let spans: ReadableSpan[] = [];
  try {
    await generateText({
      model: new MockLanguageModelV3({ provider: 'mock-provider', modelId: MODEL_ID, doGenerate: steps(city, options.answer) }),
      system: 'You are a helpful weather assistant. Use the tools.',
      prompt: question,
      tools: { getWeather },
      stopWhen: stepCountIs(4),
      experimental_telemetry: {
        isEnabled: true,
        functionId: options.agentName ?? 'weather-agent',
        recordInputs: true,
        recordOutputs: true,
        tracer: provider.getTracer('e2e-weather-app', '1.0.0'),
      },
    });
    await provider.forceFlush();
  } finally {
    // Read the copies first: shutting the in-memory exporter down clears them.
    spans = memory.getFinishedSpans();
    await provider.shutdown();
  }
  const agent = spans.find((s) => s.name === 'ai.generateText');
  if (!agent) throw new Error(`no ai.generateText span among ${spans.map((s) => s.name).join(', ')}`);
  const traceId = agent.spanContext().traceId;
  if (spans.some((s) => s.spanContext().traceId !== traceId)) throw new Error('the AI SDK spans are not in one trace (context manager missing?)');
  return { question, answer: options.answer, toolResult, spans, traceId, agentSpanId: agent.spanContext().spanId };
}

/** Send already recorded spans again, unchanged, with a fresh OTLP/protobuf exporter (a replay). */
export async function replaySpans(otlpUrl: string, spans: readonly ReadableSpan[]): Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${otlpUrl}/v1/traces`, timeoutMillis: 10_000 });
  try {
    const result = await new Promise<ExportResult>((resolve) => exporter.export([...spans], resolve));
    if (result.code !== ExportResultCode.SUCCESS) throw new Error(`replay export failed: ${result.error?.message ?? 'unknown'}`);
  } finally {
    await exporter.shutdown();
  }
}
