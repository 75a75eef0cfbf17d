import { z } from 'zod';

export const emitSection = z
  .strictObject({
    stdout: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
    jsonl: z
      .strictObject({
        path: z.string().min(1).optional(),
        maxBytes: z.number().int().positive().default(100 * 1024 * 1024),
        maxFiles: z.number().int().positive().default(5),
      })
      .prefault({}),
    otlp: z
      .strictObject({
        endpoint: z.string().min(1).optional(),
        protocol: z.enum(['http/protobuf', 'http/json', 'grpc']).default('http/protobuf'),
        headers: z.record(z.string(), z.string()).optional(),
        timeoutMs: z.number().int().positive().default(10_000),
      })
      .prefault({}),
    prometheus: z
      .strictObject({
        enabled: z.boolean().default(true),
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(9464),
      })
      .prefault({}),
  })
  .prefault({});
