/**
 * Cache keys of judge calls: a SHA-256 over the model id, the system instructions, the prompt and the
 * output schema (its JSON Schema; `text` for plain-text calls). Two calls with the same key ask the same
 * model the same question in the same answer format, so one answer serves both.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';


/** The parts a judge answer depends on. */
export interface JudgeKeyParts {
  modelId: string;
  instructions: string;
  prompt: string;
  schema?: z.ZodType | undefined;
}

/** Keys of judge calls, remembering each schema's fingerprint (one per economics wrapper). */
export class JudgeKeys {
  readonly #schemaText = new WeakMap<object, string>();
  #anonymous = 0;

  /** A stable text for a zod schema: its JSON Schema, or an identity of this instance when it has none. */
  fingerprint(schema: z.ZodType | undefined): string {
    if (schema === undefined) return 'text';
    let t = this.#schemaText.get(schema);
    if (t === undefined) {
      try {
        t = JSON.stringify(z.toJSONSchema(schema));
      } catch {
        t = `schema#${++this.#anonymous}`;
      }
      this.#schemaText.set(schema, t);
    }
    return t;
  }

  /**
   * Hex SHA-256 key of a judge call.
   *
   * @example
   * ```ts
   * keys.key({ modelId: 'gpt-4o-mini', instructions: 'Grade.', prompt: 'Is it polite?', schema: z.object({ ok: z.boolean() }) });
   * ```
   */
  key(parts: JudgeKeyParts): string {
    const h = createHash('sha256');
    for (const p of [parts.modelId, parts.instructions, parts.prompt, this.fingerprint(parts.schema)]) h.update(p).update('\0');
    return h.digest('hex');
  }
}
