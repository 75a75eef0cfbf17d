import { z } from 'zod';
import { picomatchGlob } from '../patterns.js';
import { httpUrl, listenHost } from './listeners.js';
import { tlsServerSettings } from './tls.js';

/** Retry policy shared by every emitter: exponential backoff with jitter within a time budget. */
const retrySettings = z
  .strictObject({
    initialBackoffMs: z.number().int().positive().default(500),
    maxBackoffMs: z.number().int().positive().default(30_000),
    /** Time budget of a batch's retries from its first attempt (the Collector's `max_elapsed_time`); then the caller gets `retryable`. */
    maxElapsedMs: z.number().int().positive().default(300_000),
    /** Attempts per batch, the first included; unset: only the time budget bounds the retries. */
    maxAttempts: z.number().int().min(1).max(100_000).optional(),
    /** Budget spent: `hold` offers the records again (the trace stays unsettled); `drop` drops them, counted (reason `retry_exhausted`). */
    onExhausted: z.enum(['hold', 'drop']).default('hold'),
  })
  .prefault({});

/** Bounded buffering in front of every emitter. */
const bufferSettings = z
  .strictObject({
    /** Records held per emitter; beyond it `emit()` answers `retryable` at once (back-pressure). */
    maxRecords: z.number().int().positive().default(10_000),
    /** Estimated bytes held per emitter (a record's strings plus a fixed allowance); beyond it, as for `maxRecords`. */
    maxBytes: z.number().int().positive().default(64 * 1024 * 1024),
    /** Records sent in one request / write. */
    maxBatchRecords: z.number().int().positive().default(512),
  })
  .prefault({});

/**
 * One emitter's overrides of `emit.retry` and `emit.buffer` (e.g. `emit.otlp.retry.maxElapsedMs`); a key not
 * set here takes the shared value.
 */
const overrides = {
  retry: z
    .strictObject({
      initialBackoffMs: z.number().int().positive().optional(),
      maxBackoffMs: z.number().int().positive().optional(),
      maxElapsedMs: z.number().int().positive().optional(),
      maxAttempts: z.number().int().min(1).max(100_000).optional(),
      onExhausted: z.enum(['hold', 'drop']).optional(),
    })
    .optional(),
  buffer: z
    .strictObject({
      maxRecords: z.number().int().positive().optional(),
      maxBytes: z.number().int().positive().optional(),
      maxBatchRecords: z.number().int().positive().optional(),
    })
    .optional(),
};

export const emitSection = z
  .strictObject({
    stdout: z.strictObject({ enabled: z.boolean().default(true), ...overrides }).prefault({}),
    jsonl: z
      .strictObject({
        path: z.string().min(1).optional(),
        maxBytes: z.number().int().positive().default(100 * 1024 * 1024),
        maxFiles: z.number().int().positive().default(5),
        ...overrides,
      })
      .prefault({}),
    otlp: z
      .strictObject({
        /** Base URL (`/v1/traces`, `/v1/logs` are appended for HTTP). Unset: `OTEL_EXPORTER_OTLP_*` decide, else off. */
        endpoint: httpUrl.optional(),
        protocol: z.enum(['http/protobuf', 'http/json', 'grpc']).default('http/protobuf'),
        headers: z.record(z.string(), z.string()).optional(),
        timeoutMs: z.number().int().positive().default(10_000),
        /** Evaluation carrier spans with the `gen_ai.evaluation.result` span event. */
        traces: z.boolean().default(true),
        /** `gen_ai.evaluation.result` log events. */
        logs: z.boolean().default(true),
        /** OTLP metrics export interval (metrics go out over OTLP only when OTLP is on). */
        metricsIntervalMs: z.number().int().positive().default(60_000),
        ...overrides,
      })
      .prefault({}),
    prometheus: z
      .strictObject({
        enabled: z.boolean().default(true),
        host: listenHost.default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(9464),
        /** HTTPS for `/metrics`, the health routes and the live page, and with `clientCaFile` mTLS; absent: HTTP. */
        tls: tlsServerSettings,
      })
      .prefault({}),
    kafka: z
      .strictObject({
        enabled: z.boolean().default(false),
        brokers: z.array(z.string().min(1)).min(1).default(['127.0.0.1:9092']),
        /** Score records as JSON, keyed by trace id. */
        topic: z.string().min(1).default('tracejudge_scores'),
        clientId: z.string().min(1).default('tracejudge-emit'),
        /** kafkajs per-request timeout. */
        requestTimeoutMs: z.number().int().positive().default(10_000),
        /** TLS to the brokers, as `sources.kafka.ssl`: true (system CAs), or kafkajs TLS options (`ca`, `cert`, `key` as PEM text). */
        ssl: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
        ...overrides,
      })
      .prefault({}),
    metrics: z
      .strictObject({
        /** Distinct `gen_ai.agent.name` values kept on metrics; later ones are reported as `other`. */
        maxAgents: z.number().int().min(0).default(100),
        /** When non-empty, only these agent names (exact, or picomatch globs such as `billing-*`) are kept; the rest become `other`. */
        allowAgents: z.array(picomatchGlob).default([]),
      })
      .prefault({}),
    buffer: bufferSettings,
    retry: retrySettings,
  })
  .prefault({});

/** The validated `emit` section. */
export type EmitConfig = z.output<typeof emitSection>;
