/**
 * Which convention key families a span's attributes carry, from one pass over its keys. Several selectors
 * ask "does any key start with …" of the same span (and the AI SDK one of its parent and children too);
 * the tree computes the answer once per span (`SpanTree.keyFlags`) instead of one key scan per question.
 */
import type { Attributes } from '../model/span.js';

/** A key starts with `mastra.`. */
export const KEY_MASTRA = 1;
/** A key starts with `gen_ai.`. */
export const KEY_GEN_AI = 2;
/** A key starts with `gen_ai.prompt.0.`, `gen_ai.completion.0.` or `traceloop.entity.` (OpenLLMetry's indexed form). */
export const KEY_OPENLLMETRY_LEGACY = 4;

/** The flags of `attrs` (for-in over a plain attribute object visits exactly its own keys). */
export function keyFlagsOf(attrs: Attributes): number {
  let flags = 0;
  for (const k in attrs) {
    switch (k.charCodeAt(0)) {
      case 0x6d: // m
        if (k.startsWith('mastra.')) flags |= KEY_MASTRA;
        break;
      case 0x67: // g
        if (k.startsWith('gen_ai.')) {
          flags |= KEY_GEN_AI;
          if (k.startsWith('gen_ai.prompt.0.') || k.startsWith('gen_ai.completion.0.')) flags |= KEY_OPENLLMETRY_LEGACY;
        }
        break;
      case 0x74: // t
        if (k.startsWith('traceloop.entity.')) flags |= KEY_OPENLLMETRY_LEGACY;
        break;
      default:
    }
  }
  return flags;
}
