/**
 * The OTLP receivers' (and the live page's) bearer token, replaceable while they run: a config reload
 * rotates it, and the previous token keeps working for `previousTokenGraceMs` (0: refused at once), the
 * overlap senders need to switch. Both tokens are compared through {@link bearerMatches} (constant time).
 */
import { bearerMatches } from './receiver.js';

/** What a receiver asks of its token check. */
export interface TokenCheck {
  /** True when no token is configured, or `header` is `Bearer <current>` (or the previous one within its grace). */
  accepts(header: string | undefined): boolean;
}

/** True when `check` (a fixed token, a {@link TokenCheck}, or none) accepts `header`. */
export function tokenAccepts(check: string | TokenCheck | undefined, header: string | undefined): boolean {
  if (check === undefined) return true;
  if (typeof check === 'string') return bearerMatches(header, check);
  return check.accepts(header);
}

export class BearerAuth implements TokenCheck {
  #current: string | undefined;
  #previous: { token: string; until: number } | undefined;

  constructor(
    token: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.#current = token;
  }

  accepts(header: string | undefined): boolean {
    if (this.#current === undefined) return true;
    if (bearerMatches(header, this.#current)) return true;
    const prev = this.#previous;
    if (prev === undefined) return false;
    if (this.now() >= prev.until) {
      this.#previous = undefined;
      return false;
    }
    return bearerMatches(header, prev.token);
  }

  /**
   * Replace the token; the old one stays accepted for `graceMs`. Returns false (and changes nothing) when
   * `token` is the current one. Removing the token turns the check off at once, whatever the grace.
   */
  rotate(token: string | undefined, graceMs: number): boolean {
    if (token === this.#current) return false;
    const old = this.#current;
    this.#current = token;
    this.#previous = old !== undefined && token !== undefined && graceMs > 0 ? { token: old, until: this.now() + graceMs } : undefined;
    return true;
  }
}
