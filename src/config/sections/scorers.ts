import { z } from 'zod';

/** One configured scorer; type-specific options are checked by the scorer registry. */
const scorerEntry = z.looseObject({
  type: z.string().min(1),
  threshold: z.number().min(0).optional(),
  reason: z.enum(['always', 'on-fail', 'never']).default('on-fail'),
});

export const scorersSection = z.record(z.string().min(1), scorerEntry).optional();
