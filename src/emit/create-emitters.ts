/**
 * Builds the configured emitters (the `emit` section): metrics (always), stdout, JSON-lines file, OTLP carrier
 * spans and log events, Kafka. Each real sink is wrapped in a `BufferedEmitter`.
 */
import type { Resource } from '@opentelemetry/resources';
import type { ComponentSettings } from '../component.js';
import type { EmitConfig } from '../config/sections/emit.js';
import { BufferedEmitter, type BufferedEmitterOptions, type RecordSender } from './buffered-emitter.js';
import { JsonlFileSender } from './jsonl-file.js';
import type { KafkaEmitOptions, KafkaSender } from './kafka.js';
import { MetricsEmitter } from './metrics-emitter.js';
import { createLogExporter, createSpanExporter } from '../otlp/exporters.js';
import { createLogSender, createSpanSender } from './otlp/otlp-sender.js';
import { resolveOtlpSettings, signalUrl } from '../otlp/export-settings.js';
import type { EmitResult, Emitter } from './emitter.js';
import type { ScoreRecord } from '../model/score-record.js';
import { StdoutSender } from './stdout.js';

export interface CreateEmittersOptions {
  /** Logger and instruments, the environment for `OTEL_EXPORTER_OTLP_*`, and the resource of OTLP output. */
  settings: ComponentSettings & { readonly env: Readonly<Record<string, string | undefined>>; readonly resource: Resource };
  /** Replaces the stdout sender when `emit.stdout` is on (`score --format table` collects records instead). */
  stdout?: RecordSender;
}

/** An emitter's own `retry` and `buffer` overrides (`emit.<emitter>.retry.*`, `emit.<emitter>.buffer.*`). */
interface EmitterOverrides {
  retry?:
    | { initialBackoffMs?: number | undefined; maxBackoffMs?: number | undefined; maxElapsedMs?: number | undefined; maxAttempts?: number | undefined; onExhausted?: 'hold' | 'drop' | undefined }
    | undefined;
  buffer?: { maxRecords?: number | undefined; maxBytes?: number | undefined; maxBatchRecords?: number | undefined } | undefined;
}

/** The buffering/retry options of `emit.buffer` and `emit.retry`, with one emitter's overrides applied. */
export function bufferOptions(emit: EmitConfig, own: EmitterOverrides = {}): BufferedEmitterOptions {
  const retry = own.retry ?? {};
  const buffer = own.buffer ?? {};
  const maxAttempts = retry.maxAttempts ?? emit.retry.maxAttempts;
  return {
    maxRecords: buffer.maxRecords ?? emit.buffer.maxRecords,
    maxBytes: buffer.maxBytes ?? emit.buffer.maxBytes,
    maxBatchRecords: buffer.maxBatchRecords ?? emit.buffer.maxBatchRecords,
    initialBackoffMs: retry.initialBackoffMs ?? emit.retry.initialBackoffMs,
    maxBackoffMs: retry.maxBackoffMs ?? emit.retry.maxBackoffMs,
    maxElapsedMs: retry.maxElapsedMs ?? emit.retry.maxElapsedMs,
    onExhausted: retry.onExhausted ?? emit.retry.onExhausted,
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
  };
}

/**
 * The Kafka sender, loaded (and kafkajs with it, ~14 MiB) on the first send: a service that emits nowhere
 * to Kafka never loads it.
 */
class LazyKafkaSender implements RecordSender {
  readonly name = 'kafka';
  readonly destination: string;
  #sender: Promise<KafkaSender> | undefined;

  constructor(
    private readonly options: KafkaEmitOptions,
    private readonly logger: ComponentSettings['logger'],
  ) {
    this.destination = `kafka topic ${options.topic} at ${options.brokers.join(',')}`;
  }

  private sender(): Promise<KafkaSender> {
    this.#sender ??= import('./kafka.js').then(({ KafkaSender }) => new KafkaSender(this.options, this.logger));
    return this.#sender;
  }

  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    return (await this.sender()).send(records);
  }

  async close(): Promise<void> {
    if (this.#sender) await (await this.#sender).close();
  }
}

/**
 * Every configured emitter: the metrics emitter (always), stdout, the JSON-lines file, OTLP carrier spans
 * and log events, Kafka. Each real sink is wrapped in a `BufferedEmitter`. Hand them to a `FanoutEmitter`.
 */
export function createEmitters(config: { emit: EmitConfig }, options: CreateEmittersOptions): Emitter[] {
  const { settings } = options;
  const emit = config.emit;
  const senders: [RecordSender, BufferedEmitterOptions][] = [];
  if (emit.stdout.enabled) senders.push([options.stdout ?? new StdoutSender(), bufferOptions(emit, emit.stdout)]);
  if (emit.jsonl.path) senders.push([new JsonlFileSender({ path: emit.jsonl.path, maxBytes: emit.jsonl.maxBytes, maxFiles: emit.jsonl.maxFiles }), bufferOptions(emit, emit.jsonl)]);
  const otlp = resolveOtlpSettings(emit.otlp, settings.env, settings.logger);
  const otlpOptions = bufferOptions(emit, emit.otlp);
  if (otlp?.traces) senders.push([createSpanSender(createSpanExporter(otlp), otlp.protocols.TRACES, settings.resource, signalUrl(otlp, 'TRACES')), otlpOptions]);
  if (otlp?.logs) senders.push([createLogSender(createLogExporter(otlp), otlp.protocols.LOGS, settings.resource, signalUrl(otlp, 'LOGS')), otlpOptions]);
  if (emit.kafka.enabled) {
    const kafka = { brokers: emit.kafka.brokers, topic: emit.kafka.topic, clientId: emit.kafka.clientId, requestTimeoutMs: emit.kafka.requestTimeoutMs, ssl: emit.kafka.ssl };
    senders.push([new LazyKafkaSender(kafka, settings.logger), bufferOptions(emit, emit.kafka)]);
  }
  return [new MetricsEmitter(settings.telemetry), ...senders.map(([s, o]) => new BufferedEmitter(s, o, settings))];
}
