/**
 * Cache keys of judge calls: a SHA-256 over the model id, the system instructions, the prompt and the
 * output schema (its JSON Schema; `text` for plain-text calls). Two calls with the same key ask the same
 * model the same question in the same answer format, so one answer serves both.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

const schemaText = new WeakMap<object, string>();
let anonymous = 0;

/** A stable text for a zod schema: its JSON Schema, or a per-process identity when it has none. */
export function schemaFingerprint(schema: z.ZodType | undefined): string {
  if (schema === undefined) return 'text';
  let t = schemaText.get(schema);
  if (t === undefined) {
    try {
      t = JSON.stringify(z.toJSONSchema(schema));
    } catch {
      t = `schema#${++anonymous}`;
    }
    schemaText.set(schema, t);
  }
  return t;
}

/** The parts a judge answer depends on. */
export interface JudgeKeyParts {
  modelId: string;
  instructions: string;
  prompt: string;
  schema?: z.ZodType | undefined;
}

/**
 * Hex SHA-256 key of a judge call.
 *
 * @example
 * ```ts
 * judgeKey({ modelId: 'gpt-4o-mini', instructions: 'Grade.', prompt: 'Is it polite?', schema: z.object({ ok: z.boolean() }) });
 * ```
 */
export function judgeKey(parts: JudgeKeyParts): string {
  const h = createHash('sha256');
  for (const p of [parts.modelId, parts.instructions, parts.prompt, schemaFingerprint(parts.schema)]) h.update(p).update('\0');
  return h.digest('hex');
}
