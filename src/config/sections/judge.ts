import { z } from 'zod';

export const judgeSection = z
  .strictObject({
    type: z.literal('openai').default('openai'),
    baseURL: z.string().min(1).default('https://api.openai.com/v1'),
    apiKey: z.string().optional(),
    model: z.string().min(1).default('gpt-4o-mini'),
    temperature: z.number().min(0).max(2).default(0),
    timeoutMs: z.number().int().positive().default(60_000),
    maxRetries: z.number().int().min(0).max(10).default(2),
    concurrency: z.number().int().positive().default(4),
  })
  .prefault({});
