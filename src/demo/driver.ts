/**
 * Drives the sample agents for `tracejudge demo`: one run every `intervalMs`, agents in turn, each cycling
 * through its scenarios, traced by a real OpenTelemetry SDK tracer provider and exported by the real
 * OTLP/protobuf exporter to the service, exactly as an instrumented app would.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import { errorMessage } from '../errors.js';
import { SAMPLE_AGENTS, type SampleAgent, type Scenario } from './agents.js';
import { runScenario } from './run-agent.js';

export interface DemoDriverOptions {
  /** OTLP/HTTP base URL of the service, e.g. `http://127.0.0.1:4318`. */
  otlpUrl: string;
  /** Extra export headers (the bearer token when `sources.otlp.auth` is on). */
  headers?: Record<string, string>;
  /** Time between two runs (default 400 ms). */
  intervalMs?: number;
  agents?: readonly SampleAgent[];
  logger: Logger;
}

/** Runs at most this many agent runs at once (a slow exporter never piles runs up). */
const MAX_IN_FLIGHT = 8;


export class DemoDriver {
  readonly agents: readonly SampleAgent[];
  /** Runs started, per agent. */
  readonly sent = new Map<string, number>();
  /** Runs that failed inside the AI SDK (never expected; logged). */
  failed = 0;
  readonly #provider: BasicTracerProvider;
  readonly #options: DemoDriverOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #next = 0;
  #stopped: Promise<void> | undefined;

  constructor(options: DemoDriverOptions) {
    this.#options = options;
    this.agents = options.agents ?? SAMPLE_AGENTS;
    for (const a of this.agents) this.sent.set(a.name, 0);
    // The AI SDK nests its spans through the active context, so the process needs a context manager. It is
    // process-wide by the OTel API's design; when one is already registered (a host app's), that one is used.
    const manager = new AsyncLocalStorageContextManager();
    if (context.setGlobalContextManager(manager.enable()) === false) manager.disable();
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'tracejudge-demo-agents' }),
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpUrl}/v1/traces`, headers: options.headers ?? {}, timeoutMillis: 5000 }), {
          scheduledDelayMillis: 200,
        }),
      ],
    });
  }

  /** Total runs started. */
  get total(): number {
    let n = 0;
    for (const v of this.sent.values()) n += v;
    return n;
  }

  /** Start driving: one run now, then one every `intervalMs`. */
  start(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.#options.intervalMs ?? 400);
  }

  #tick(): void {
    if (this.#inFlight.size >= MAX_IN_FLIGHT || this.agents.length === 0) return;
    const i = this.#next;
    const agent = this.agents[i % this.agents.length] as SampleAgent;
    const scenario = agent.scenarios[Math.floor(i / this.agents.length) % agent.scenarios.length];
    if (scenario) void this.run(agent, scenario);
  }

  /**
   * One run of `scenario` (also for tests and other scenarios than the built-in ones); resolves when the AI SDK
   * finished. A failure is counted and logged, never thrown.
   */
  run(agent: SampleAgent, scenario: Scenario): Promise<void> {
    const i = this.#next++;
    this.sent.set(agent.name, (this.sent.get(agent.name) ?? 0) + 1);
    const tracer = this.#provider.getTracer('tracejudge-demo', '1.0.0');
    const run: Promise<void> = runScenario(agent, scenario, tracer, String(i))
      .catch((err: unknown) => {
        this.failed++;
        this.#options.logger.warn({ agent: agent.name, err: errorMessage(err) }, 'demo agent run failed');
      })
      .finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
    return run;
  }

  /** Export every finished span now. */
  flush(): Promise<void> {
    return this.#provider.forceFlush();
  }

  /** Stop starting runs, let the running ones finish and export every span (bounded by `deadline`). Safe twice. */
  stop(deadline: number): Promise<void> {
    this.#stopped ??= (async () => {
      clearInterval(this.#timer);
      const left = (): number => Math.max(0, deadline - Date.now());
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, left())));
      await Promise.race([Promise.all([...this.#inFlight]), late]);
      await Promise.race([this.#provider.forceFlush(), late]).catch((err: unknown) => this.#options.logger.warn({ err: errorMessage(err) }, 'demo span export failed'));
      await Promise.race([this.#provider.shutdown(), late]).catch(() => undefined);
      clearTimeout(timer);
    })();
    return this.#stopped;
  }
}
