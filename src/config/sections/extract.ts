import { z } from 'zod';
import { picomatchGlob } from '../patterns.js';

/**
 * Where a mapped value lives: an attribute key, or `{ attribute, path }` where `path` is a JSON path into
 * the attribute's (JSON-parsed) value, e.g. `$.messages[-1].content` (negative indices count from the end).
 * The key `$name` reads the span name.
 */
const fieldRef = z.union([
  z.string().min(1),
  z.strictObject({
    attribute: z.string().min(1),
    path: z
      .string()
      .regex(/^\$?(\.[^.[\]]+|\[-?\d+\]|\['[^']*'\])*$/, "must be a JSON path like $.a.b[0] or $['key']")
      .optional(),
  }),
]);

/** One user mapping rule: which spans it matches, what they are, and where their values live. */
const mappingRule = z
  .strictObject({
    /** Span name glob (picomatch, e.g. `agent:*`). */
    name: picomatchGlob.optional(),
    /** Attribute that must be present (and equal `equals` when given). */
    attribute: z.string().min(1).optional(),
    equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
    /** What matching spans are. */
    role: z.enum(['agent', 'llm', 'tool', 'retriever']).default('agent'),
    agentName: fieldRef.optional(),
    input: fieldRef.optional(),
    output: fieldRef.optional(),
    system: fieldRef.optional(),
    toolName: fieldRef.optional(),
    toolCallId: fieldRef.optional(),
    toolArgs: fieldRef.optional(),
    toolResult: fieldRef.optional(),
    documents: fieldRef.optional(),
    model: fieldRef.optional(),
    inputTokens: fieldRef.optional(),
    outputTokens: fieldRef.optional(),
  })
  .refine((r) => r.name !== undefined || r.attribute !== undefined, { message: 'needs `name` or `attribute` to match spans' });

function validRegex(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** One redaction rule, applied to every text before it leaves for a judge. */
const redactionRule = z
  .strictObject({
    /** JavaScript regular expression source. */
    pattern: z.string().min(1),
    /** Regex flags; `g` is always added. */
    flags: z.string().regex(/^[imsuv]*$/, 'only the flags i, m, s, u, v are allowed').default(''),
    replacement: z.string().default('[REDACTED]'),
  })
  .refine((r) => validRegex(r.pattern, `g${r.flags}`), { message: 'is not a valid regular expression', path: ['pattern'] });

export const extractSection = z
  .strictObject({
    /** Cap on each extracted text and tool result, in UTF-8 bytes, with a visible truncation marker. */
    maxTextBytes: z.number().int().positive().default(32 * 1024),
    /** Span attribute holding ground truth for reference scorers. */
    groundTruthAttribute: z.string().min(1).default('tracejudge.ground_truth'),
    /** Redaction rules, in order. */
    redact: z.array(redactionRule).default([]),
    /** In-house conventions: rules tried before the built-in conventions, first match wins. */
    mapping: z.array(mappingRule).default([]),
  })
  .prefault({});

export type MappingRule = z.output<typeof mappingRule>;
export type FieldRef = z.output<typeof fieldRef>;
export type RedactionRule = z.input<typeof redactionRule>;
