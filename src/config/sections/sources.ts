import { z } from 'zod';

const bearerAuth = z.strictObject({ bearerToken: z.string().min(1).optional() }).prefault({});

const httpSource = z
  .strictObject({
    enabled: z.boolean().default(true),
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(4318),
    /** Body limit after decompression. */
    maxBodyBytes: z.number().int().positive().default(16 * 1024 * 1024),
  })
  .prefault({});

const grpcSource = z
  .strictObject({
    enabled: z.boolean().default(true),
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(4317),
    maxMessageBytes: z.number().int().positive().default(16 * 1024 * 1024),
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
  })
  .prefault({});

export const sourcesSection = z
  .strictObject({
    otlp: z
      .strictObject({
        http: httpSource,
        grpc: grpcSource,
        auth: bearerAuth,
        wal: otlpWal,
      })
      .prefault({}),
    kafka: kafkaSource,
  })
  .prefault({});
