/** Routing helpers for stub judge scripts. */
import type { StubReply } from './replies.js';
import type { StubRequest, StubScript } from './server.js';

/**
 * A script that answers by the first marker found in the request's system or user text.
 * Rules are tried in order; `fallback` answers when none matches (default: 500).
 *
 * @example
 * ```ts
 * stub.setScript(byMarker([['Extract all claims', reply.json({ claims: ['a'] })]]));
 * ```
 */
export function byMarker(
  rules: ReadonlyArray<readonly [string | RegExp, StubReply | ((req: StubRequest) => StubReply)]>,
  fallback?: StubReply,
): StubScript {
  return (req) => {
    const text = `${req.system}\n\n${req.user}`;
    for (const [marker, answer] of rules) {
      const hit = typeof marker === 'string' ? text.includes(marker) : marker.test(text);
      if (hit) return typeof answer === 'function' ? answer(req) : answer;
    }
    return fallback ?? { kind: 'error', status: 500, body: { error: { message: 'stub judge: no marker matched', type: 'server_error', param: null, code: null } } };
  };
}
