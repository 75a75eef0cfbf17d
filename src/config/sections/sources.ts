import { z } from 'zod';
import { listenHost } from './listeners.js';
import { tlsServerSettings } from './tls.js';

const bearerAuth = z
  .strictObject({
    bearerToken: z.string().min(1).optional(),
    /**
     * After a reload changed `bearerToken`, the previous token is still accepted for this long (a rotation's
     * overlap while senders switch); 0: refused at once.
     */
    previousTokenGraceMs: z.number().int().min(0).default(0),
  })
  .prefault({});

const httpSource = z
  .strictObject({
    enabled: z.boolean().default(true),
    host: listenHost.default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(4318),
    /** Body limit after decompression. */
    maxBodyBytes: z.number().int().positive().default(16 * 1024 * 1024),
    /**
     * Longest time from a request's headers to the last byte of its body (including the bytes discarded after
     * a refusal); a slower request gets 408 and its connection is closed.
     */
    bodyTimeoutMs: z.number().int().positive().max(60_000).default(10_000),
    /** An idle keep-alive connection is closed after this long; `Keep-Alive: timeout=` announces it to clients. */
    keepAliveTimeoutMs: z.number().int().min(1000).default(65_000),
    /** HTTPS, and with `clientCaFile` mTLS; absent: plaintext. */
    tls: tlsServerSettings,
  })
  .prefault({});

const grpcSource = z
  .strictObject({
    enabled: z.boolean().default(true),
    host: listenHost.default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(4317),
    maxMessageBytes: z.number().int().positive().default(16 * 1024 * 1024),
    /** HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS: calls one connection may have open at once. */
    maxConcurrentStreams: z.number().int().positive().default(100),
    /** Longest time from a call's headers to the end of its request message; a slower call gets DEADLINE_EXCEEDED and is closed. */
    messageTimeoutMs: z.number().int().positive().max(60_000).default(10_000),
    /** The server pings a connection after this long without activity (grpc.keepalive_time_ms). */
    keepaliveTimeMs: z.number().int().positive().default(60_000),
    /** A connection whose ping is not answered within this long is closed (grpc.keepalive_timeout_ms). */
    keepaliveTimeoutMs: z.number().int().positive().default(20_000),
    /** A connection without calls for this long is closed (grpc.max_connection_idle_ms). */
    maxConnectionIdleMs: z.number().int().positive().default(300_000),
    /** A connection is asked to go away (GOAWAY) at this age, its calls given messageTimeoutMs to finish; 0: no limit (grpc.max_connection_age_ms). */
    maxConnectionAgeMs: z.number().int().min(0).default(0),
    /** TLS, and with `clientCaFile` mTLS; absent: plaintext. */
    tls: tlsServerSettings,
  })
  .prefault({});

/**
 * Write-ahead log of accepted OTLP requests (off by default): a request is acknowledged only once its
 * record is durable per `fsync`, and records not yet scored are replayed at the next start.
 */
const otlpWal = z
  .strictObject({
    enabled: z.boolean().default(false),
    dir: z.string().min(1).default('./tracejudge-wal'),
    /** always: fdatasync before acknowledging (group commit); interval: every checkpointIntervalMs; never: leave it to the OS. */
    fsync: z.enum(['always', 'interval', 'never']).default('always'),
    segmentBytes: z.number().int().min(65536).default(64 * 1024 * 1024),
    maxBytes: z.number().int().positive().default(1024 * 1024 * 1024),
    checkpointIntervalMs: z.number().int().positive().default(1000),
  })
  .refine((w) => w.maxBytes >= 2 * w.segmentBytes, { message: 'must be at least twice segmentBytes', path: ['maxBytes'] })
  .prefault({});

const kafkaSource = z
  .strictObject({
    enabled: z.boolean().default(false),
    brokers: z.array(z.string().min(1)).min(1).default(['127.0.0.1:9092']),
    topic: z.string().min(1).default('otlp_spans'),
    groupId: z.string().min(1).default('tracejudge'),
    encoding: z.enum(['otlp_proto', 'otlp_json']).default('otlp_proto'),
    initialOffset: z.enum(['latest', 'earliest']).default('latest'),
    clientId: z.string().min(1).default('tracejudge'),
    /** Per-topic encodings, for consuming several topics; `topic`/`encoding` are used when absent. */
    topics: z.array(z.strictObject({ topic: z.string().min(1), encoding: z.enum(['otlp_proto', 'otlp_json']).default('otlp_proto') })).optional(),
    /** Undecodable messages go here; defaults to `<topic>.dlq`. */
    deadLetterTopic: z.string().min(1).optional(),
    /** How often settled offsets are committed. */
    commitIntervalMs: z.number().int().positive().default(1000),
    ssl: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
    sasl: z
      .strictObject({
        mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
        username: z.string(),
        password: z.string(),
      })
      .optional(),
    sessionTimeoutMs: z.number().int().positive().default(30_000),
    heartbeatIntervalMs: z.number().int().positive().default(3_000),
    /**
     * How long the source waits at start for `brokers` to answer before the service gives up (exit 1, naming
     * this key). 0: wait forever, not ready meanwhile (/readyz 503), as the Collector's receiver does.
     */
    startupTimeoutMs: z.number().int().nonnegative().default(0),
  })
  .prefault({});

export const sourcesSection = z
  .strictObject({
    otlp: z
      .strictObject({
        /**
         * Request bytes (HTTP bodies after decompression, gRPC messages) the OTLP receivers hold at once, across
         * both receivers and every connection; beyond it requests get 429 / RESOURCE_EXHAUSTED with a retry hint.
         */
        maxInFlightBytes: z.number().int().positive().default(64 * 1024 * 1024),
        http: httpSource,
        grpc: grpcSource,
        auth: bearerAuth,
        wal: otlpWal,
      })
      .superRefine((o, ctx) => {
        // One request at its size limit must fit in the budget, or it could never be taken.
        if (o.http.enabled && o.maxInFlightBytes < o.http.maxBodyBytes) {
          ctx.addIssue({ code: 'custom', path: ['maxInFlightBytes'], message: `must be at least sources.otlp.http.maxBodyBytes (${o.http.maxBodyBytes})` });
        }
        if (o.grpc.enabled && o.maxInFlightBytes < o.grpc.maxMessageBytes) {
          ctx.addIssue({ code: 'custom', path: ['maxInFlightBytes'], message: `must be at least sources.otlp.grpc.maxMessageBytes (${o.grpc.maxMessageBytes})` });
        }
      })
      .prefault({}),
    kafka: kafkaSource,
  })
  .prefault({});
