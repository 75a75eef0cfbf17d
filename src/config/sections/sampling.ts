import { z } from 'zod';

const rate = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const agentSampling = z.strictObject({
  rate: rate.optional(),
  scorers: z.record(z.string(), rate).optional(),
});

export const samplingSection = z
  .strictObject({
    default: z.strictObject({ rate: rate.optional() }).optional(),
    agents: z.record(z.string().min(1), agentSampling).optional(),
  })
  .optional();
