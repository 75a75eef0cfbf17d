/**
 * The live page's routes over real HTTP on 127.0.0.1 (src/live/routes.ts, src/live/auth.ts): the token check
 * (Bearer for API clients, Basic with the token as password for browsers), methods, query errors, and the
 * headers that keep trace content from ever being read as markup.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSection } from '../../src/config/sections/live.js';
import { loadLiveAssets } from '../../src/live/assets.js';
import { liveAuthorized } from '../../src/live/auth.js';
import { LiveRing } from '../../src/live/ring.js';
import { evaluationQuery, liveRoutes } from '../../src/live/routes.js';

const TOKEN = 's3cret-token';
let server: Server;
let base: string;

beforeAll(async () => {
  const ring = new LiveRing({ config: liveSection.parse({}), now: Date.now });
  const routes = liveRoutes({ ring, assets: await loadLiveAssets(), bearerToken: TOKEN });
  server = createServer((req, res) => {
    const handler = routes[(req.url ?? '/').split('?')[0] ?? '/'];
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('liveAuthorized', () => {
  it('accepts the token as Bearer or as the Basic password, and nothing else', () => {
    expect(liveAuthorized(undefined, undefined)).toBe(true);
    expect(liveAuthorized(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(liveAuthorized(basic('anyone', TOKEN), TOKEN)).toBe(true);
    expect(liveAuthorized(basic('', TOKEN), TOKEN)).toBe(true);
    expect(liveAuthorized(undefined, TOKEN)).toBe(false);
    expect(liveAuthorized(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(liveAuthorized(basic(TOKEN, 'wrong'), TOKEN)).toBe(false);
    expect(liveAuthorized(`Basic ${Buffer.from(TOKEN).toString('base64')}`, TOKEN)).toBe(false);
    expect(liveAuthorized(TOKEN, TOKEN)).toBe(false);
  });
});

describe('the live routes', () => {
  it('answers 401 with Basic and Bearer challenges without the token, 200 with it', async () => {
    for (const path of ['/', '/live.js', '/live.css', '/api/summary', '/api/evaluations']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate'), path).toMatch(/^Basic realm="tracejudge live page".*Bearer/);
      expect((await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, path).toBe(200);
    }
  });

  it('serves the page with a CSP that forbids inline script and other origins, and JSON with nosniff', async () => {
    const page = await fetch(`${base}/`, { headers: { authorization: basic('me', TOKEN) } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toContain('<script src="live.js" defer></script>');
    expect(html).not.toMatch(/https?:\/\//); // no external asset
    const api = await fetch(`${base}/api/summary`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(((await api.json()) as { inMemory: boolean }).inMemory).toBe(true);
  });

  it('allows GET and HEAD only, and names a bad query parameter', async () => {
    const post = await fetch(`${base}/api/summary`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${base}/api/summary`, { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(head.status).toBe(200);
    const bad = await fetch(`${base}/api/evaluations?limit=ten`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'limit must be a whole number, got "ten"' });
    expect(() => evaluationQuery(new URLSearchParams('since=1'))).toThrow('unknown query parameter "since"');
    expect(evaluationQuery(new URLSearchParams('label=error&agent=a&scorer=s&limit=5'))).toEqual({ label: 'error', agent: 'a', scorer: 's', limit: 5 });
  });
});
