/**
 * What the listeners `serve` opens need beyond their own section: a host that can be bound (an IP address or
 * a host name) and a port of their own. Three listeners on one port fail at start with an EADDRINUSE that
 * reads like another program holds it; here they are one config error naming every key.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { ConfigIssue } from '../../errors.js';

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** A listen address: an IPv4 or IPv6 address or a host name (no scheme, no port). */
export const listenHost = z
  .string()
  .min(1)
  .refine((h) => isIP(h) !== 0 || HOST_NAME.test(h), { message: 'must be an IP address or a host name, without scheme or port (e.g. 0.0.0.0, 127.0.0.1, ::)' });

/** An `http://` or `https://` URL (what the OTLP exporters and HTTP clients accept). */
export const httpUrl = z
  .string()
  .min(1)
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'must be an http:// or https:// URL, e.g. http://collector:4318' },
  );

/** One listener as the config describes it. */
export interface ListenerAt {
  /** Key path of the listener, e.g. `sources.otlp.http`. */
  path: string;
  host: string;
  port: number;
}

const WILDCARD = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0', '']);

/** Whether two hosts can collide on a port: the same host, or either listens on every address. */
function overlaps(a: string, b: string): boolean {
  const norm = (h: string): string => (h === 'localhost' ? '127.0.0.1' : h.toLowerCase());
  return norm(a) === norm(b) || WILDCARD.has(a) || WILDCARD.has(b);
}

/** One issue per port shared by listeners whose hosts overlap (port 0, a free port, never collides). */
export function duplicateListenerIssues(listeners: readonly ListenerAt[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const reported = new Set<ListenerAt>();
  for (const [i, first] of listeners.entries()) {
    if (first.port === 0 || reported.has(first)) continue;
    const clash = listeners.slice(i + 1).filter((l) => l.port === first.port && !reported.has(l) && overlaps(l.host, first.host));
    if (clash.length === 0) continue;
    for (const l of clash) reported.add(l);
    const keys = [first, ...clash].map((l) => `${l.path}.port`);
    issues.push({ path: keys[0] as string, message: `${keys.slice(1).join(' and ')} ${clash.length > 1 ? 'are' : 'is'} ${first.port} too; each listener needs its own port` });
  }
  return issues;
}
