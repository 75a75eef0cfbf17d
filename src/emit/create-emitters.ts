/**
 * Builds the configured emitters (SPEC §4 `emit`) behind one fan-out: metrics (always), stdout, JSON-lines file,
 * OTLP carrier spans and log events, Kafka. Each real sink is wrapped in a `BufferedEmitter`.
 */
import type { Writable } from 'node:stream';
import type { EmitConfig } from '../config/sections/emit.js';
import { BufferedEmitter, type BufferedEmitterOptions, type RecordSender } from './buffered-emitter.js';
import { FanoutEmitter } from './fanout.js';
import { JsonlFileSender } from './jsonl-file.js';
import { KafkaSender } from './kafka.js';
import { MetricsEmitter } from './metrics-emitter.js';
import { createLogExporter, createSpanExporter } from '../otlp/exporters.js';
import { createLogSender, createSpanSender } from './otlp/otlp-sender.js';
import { resolveOtlpSettings } from '../otlp/export-settings.js';
import type { Emitter } from '../model/score-record.js';
import { StdoutSender } from './stdout.js';

export interface CreateEmittersOptions {
  /** Environment for `OTEL_EXPORTER_OTLP_*` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the stdout emitter writes (default `process.stdout`). */
  stdout?: Writable;
  /** Leave out the metrics emitter (e.g. `tracejudge score`, which has no meter). */
  metrics?: boolean;
}

/** The buffering/retry options of `emit.buffer` and `emit.retry`. */
export function bufferOptions(emit: EmitConfig): BufferedEmitterOptions {
  return {
    maxRecords: emit.buffer.maxRecords,
    maxBatchRecords: emit.buffer.maxBatchRecords,
    initialBackoffMs: emit.retry.initialBackoffMs,
    maxBackoffMs: emit.retry.maxBackoffMs,
    maxAttempts: emit.retry.maxAttempts,
  };
}

/** All configured emitters behind one fan-out (`emitters` lists them by name). */
export function createEmitters(config: { emit: EmitConfig }, options: CreateEmittersOptions = {}): FanoutEmitter {
  const emit = config.emit;
  const buffered = bufferOptions(emit);
  const senders: RecordSender[] = [];
  if (emit.stdout.enabled) senders.push(new StdoutSender(options.stdout));
  if (emit.jsonl.path) senders.push(new JsonlFileSender({ path: emit.jsonl.path, maxBytes: emit.jsonl.maxBytes, maxFiles: emit.jsonl.maxFiles }));
  const otlp = resolveOtlpSettings(emit.otlp, options.env ?? process.env);
  if (otlp?.traces) senders.push(createSpanSender(createSpanExporter(otlp), otlp.protocols.TRACES));
  if (otlp?.logs) senders.push(createLogSender(createLogExporter(otlp), otlp.protocols.LOGS));
  if (emit.kafka.enabled) {
    senders.push(new KafkaSender({ brokers: emit.kafka.brokers, topic: emit.kafka.topic, clientId: emit.kafka.clientId, requestTimeoutMs: emit.kafka.requestTimeoutMs }));
  }
  const emitters: Emitter[] = senders.map((s) => new BufferedEmitter(s, buffered));
  if (options.metrics !== false) emitters.unshift(new MetricsEmitter());
  return new FanoutEmitter(emitters);
}
