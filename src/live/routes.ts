/**
 * The live page's routes on the metrics listener (docs/live-page.md): `GET /` (the page), `/live.css`,
 * `/live.js`, `GET /api/summary` and `GET /api/evaluations`. When `sources.otlp.auth.bearerToken` is set, every
 * one of them needs the token (src/live/auth.ts). Trace content only ever leaves as JSON
 * (`application/json`, `nosniff`); the page inserts it as text, and its Content-Security-Policy allows no
 * inline script and nothing from another origin, as a second line of defence.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { LiveAssets } from './assets.js';
import { LIVE_CHALLENGES, liveAuthorized } from './auth.js';
import type { TokenCheck } from '../ingest/otlp/bearer-auth.js';
import type { EvaluationQuery, LiveRing } from './ring.js';

export interface LiveRoutesOptions {
  ring: LiveRing;
  assets: LiveAssets;
  /** `sources.otlp.auth.bearerToken`: when set, the page and the API require it. */
  bearerToken?: string | TokenCheck | undefined;
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

const LABELS = ['pass', 'fail', 'error'] as const;

class BadQuery extends Error {}

function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string | string[]> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': String(buf.length), ...extra });
  res.end(req.method === 'HEAD' ? undefined : buf);
}

function json(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** The `/api/evaluations` query from the URL; throws {@link BadQuery} naming the parameter. */
export function evaluationQuery(search: URLSearchParams): EvaluationQuery {
  const q: EvaluationQuery = {};
  for (const key of search.keys()) {
    if (!['label', 'agent', 'scorer', 'limit'].includes(key)) throw new BadQuery(`unknown query parameter ${JSON.stringify(key)} (expected label, agent, scorer or limit)`);
  }
  const label = search.get('label');
  if (label !== null) {
    if (!(LABELS as readonly string[]).includes(label)) throw new BadQuery(`label must be pass, fail or error, got ${JSON.stringify(label)}`);
    q.label = label as EvaluationQuery['label'];
  }
  const agent = search.get('agent');
  if (agent !== null) q.agent = agent;
  const scorer = search.get('scorer');
  if (scorer !== null) q.scorer = scorer;
  const limit = search.get('limit');
  if (limit !== null) {
    if (!/^\d{1,7}$/.test(limit)) throw new BadQuery(`limit must be a whole number, got ${JSON.stringify(limit)}`);
    q.limit = Number(limit);
  }
  return q;
}

/** The routes, keyed by path, for `createMetricsEndpoint({ routes })`. */
export function liveRoutes(options: LiveRoutesOptions): Record<string, RequestListener> {
  const { ring, assets, bearerToken } = options;
  const guarded =
    (handle: (req: IncomingMessage, res: ServerResponse, url: URL) => void): RequestListener =>
    (req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(req, res, 405, 'text/plain; charset=utf-8', 'method not allowed: use GET\n', { allow: 'GET, HEAD' });
        return;
      }
      if (!liveAuthorized(req.headers.authorization, bearerToken)) {
        send(req, res, 401, 'text/plain; charset=utf-8', 'missing or invalid token (sources.otlp.auth.bearerToken)\n', { 'www-authenticate': LIVE_CHALLENGES });
        return;
      }
      const url = new URL(req.url ?? '/', 'http://live.invalid');
      try {
        handle(req, res, url);
      } catch (err) {
        if (err instanceof BadQuery) json(req, res, 400, { error: err.message });
        else throw err;
      }
    };
  const page = guarded((req, res) => send(req, res, 200, 'text/html; charset=utf-8', assets.html, { 'content-security-policy': CSP }));
  return {
    '/': page,
    '/index.html': page,
    '/live.css': guarded((req, res) => send(req, res, 200, 'text/css; charset=utf-8', assets.css)),
    '/live.js': guarded((req, res) => send(req, res, 200, 'text/javascript; charset=utf-8', assets.js)),
    '/api/summary': guarded((req, res) => json(req, res, 200, ring.summary())),
    '/api/evaluations': guarded((req, res, url) => json(req, res, 200, { evaluations: ring.evaluations(evaluationQuery(url.searchParams)) })),
  };
}
