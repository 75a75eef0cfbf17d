import { z } from 'zod';

/** One configured scorer; type-specific options are checked by the scorer registry. */
const scorerEntry = z.looseObject({
  type: z.string().min(1),
  /** Compared with the score; at most the scorer's highest score (`scale`, else 1), checked by the scorer registry. */
  threshold: z.number().min(0, 'must be >= 0 (and at most the scorer\'s highest score)').optional(),
  reason: z.enum(['always', 'on-fail', 'never']).default('on-fail'),
});

export const scorersSection = z.record(z.string().min(1), scorerEntry).optional();
