/**
 * The live page's credential check: the same bearer token as the OTLP receivers
 * (`sources.otlp.auth.bearerToken`), through the receivers' own comparison. A browser cannot add an
 * `Authorization: Bearer` header to a page load, so the token is also accepted as the password of HTTP Basic
 * authentication (any user name): the browser asks for it once and sends it with the page's own requests.
 */
import { tokenAccepts, type TokenCheck } from '../ingest/otlp/bearer-auth.js';

/** The challenges a 401 carries: Basic makes browsers ask; Bearer is for API clients. */
export const LIVE_CHALLENGES = ['Basic realm="tracejudge live page", charset="UTF-8"', 'Bearer realm="tracejudge live page"'];

/**
 * True when no token is configured, or `header` is `Bearer <token>` or `Basic base64(<user>:<token>)`.
 *
 * @example
 * ```ts
 * liveAuthorized(`Basic ${Buffer.from('me:s3cret').toString('base64')}`, 's3cret'); // true
 * liveAuthorized('Bearer s3cret', 's3cret'); // true
 * liveAuthorized(undefined, 's3cret'); // false
 * ```
 */
export function liveAuthorized(header: string | undefined, token: string | TokenCheck | undefined): boolean {
  if (token === undefined) return true;
  if (header === undefined) return tokenAccepts(token, undefined);
  const basic = /^basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!basic) return tokenAccepts(token, header);
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  return tokenAccepts(token, `Bearer ${decoded.slice(colon + 1)}`);
}
