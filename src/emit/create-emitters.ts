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
import { resolveOtlpSettings } from '../otlp/export-settings.js';
import type { EmitResult, Emitter } from './emitter.js';
import type { ScoreRecord } from '../model/score-record.js';
import { StdoutSender } from './stdout.js';

export interface CreateEmittersOptions {
  /** Logger and instruments, the environment for `OTEL_EXPORTER_OTLP_*`, and the resource of OTLP output. */
  settings: ComponentSettings & { readonly env: Readonly<Record<string, string | undefined>>; readonly resource: Resource };
  /** Replaces the stdout sender when `emit.stdout` is on (`score --format table` collects records instead). */
  stdout?: RecordSender;
}

/** The buffering/retry options of `emit.buffer` and `emit.retry`. */
function bufferOptions(emit: EmitConfig): BufferedEmitterOptions {
  return {
    maxRecords: emit.buffer.maxRecords,
    maxBatchRecords: emit.buffer.maxBatchRecords,
    initialBackoffMs: emit.retry.initialBackoffMs,
    maxBackoffMs: emit.retry.maxBackoffMs,
    maxAttempts: emit.retry.maxAttempts,
  };
}

/**
 * The Kafka sender, loaded (and kafkajs with it, ~14 MiB) on the first send: a service that emits nowhere
 * to Kafka never loads it.
 */
class LazyKafkaSender implements RecordSender {
  readonly name = 'kafka';
  #sender: Promise<KafkaSender> | undefined;

  constructor(
    private readonly options: KafkaEmitOptions,
    private readonly logger: ComponentSettings['logger'],
  ) {}

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
  const buffered = bufferOptions(emit);
  const senders: RecordSender[] = [];
  if (emit.stdout.enabled) senders.push(options.stdout ?? new StdoutSender());
  if (emit.jsonl.path) senders.push(new JsonlFileSender({ path: emit.jsonl.path, maxBytes: emit.jsonl.maxBytes, maxFiles: emit.jsonl.maxFiles }));
  const otlp = resolveOtlpSettings(emit.otlp, settings.env, settings.logger);
  if (otlp?.traces) senders.push(createSpanSender(createSpanExporter(otlp), otlp.protocols.TRACES, settings.resource));
  if (otlp?.logs) senders.push(createLogSender(createLogExporter(otlp), otlp.protocols.LOGS, settings.resource));
  if (emit.kafka.enabled) {
    const kafka = { brokers: emit.kafka.brokers, topic: emit.kafka.topic, clientId: emit.kafka.clientId, requestTimeoutMs: emit.kafka.requestTimeoutMs, ssl: emit.kafka.ssl };
    senders.push(new LazyKafkaSender(kafka, settings.logger));
  }
  return [new MetricsEmitter(settings.telemetry), ...senders.map((s) => new BufferedEmitter(s, buffered, settings))];
}
