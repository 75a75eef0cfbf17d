/** Describes why an answer did not fit the judge schema, short enough to append to a re-ask. */
import { aiNow } from './ai-lazy.js';

interface IssueLike {
  path?: ReadonlyArray<PropertyKey>;
  message?: string;
}

function issuesOf(err: unknown): IssueLike[] | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur !== null && typeof cur === 'object'; depth++) {
    const issues = (cur as { issues?: unknown }).issues;
    if (Array.isArray(issues)) return issues as IssueLike[];
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A one-line reason, e.g. `verdicts.0.verdict: expected string, received number`. */
export function schemaMismatchReason(err: unknown): string {
  const { JSONParseError, NoObjectGeneratedError, TypeValidationError } = aiNow();
  if (!NoObjectGeneratedError.isInstance(err)) return 'the answer was empty or incomplete';
  const cause = err.cause;
  if (JSONParseError.isInstance(cause)) return 'it was not valid JSON';
  if (TypeValidationError.isInstance(cause)) {
    const issues = issuesOf(cause.cause);
    if (issues && issues.length > 0) {
      return issues
        .slice(0, 5)
        .map((i) => `${i.path && i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message ?? 'invalid'}`)
        .join('; ');
    }
    return 'it did not match the required schema';
  }
  if (err.finishReason === 'length') return 'it was cut off (finish reason "length")';
  return 'it could not be parsed';
}
