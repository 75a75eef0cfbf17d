import { z } from 'zod';

/** Placeholder for the extraction section; the extraction issue fills it in. */
export const extractSection = z
  .strictObject({
    /** Cap on each extracted text and tool result, with a visible truncation marker. */
    maxTextBytes: z.number().int().positive().default(32 * 1024),
    /** Span attribute holding ground truth for reference scorers. */
    groundTruthAttribute: z.string().min(1).default('tracejudge.ground_truth'),
  })
  .prefault({});
