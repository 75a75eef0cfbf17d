/**
 * The metrics / live-page listener over HTTPS (`emit.prometheus.tls`): `/metrics` answers a client that trusts
 * the CA, not one speaking plaintext; under mTLS only a client with a CA-signed certificate gets an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { get as httpGet } from 'node:http';
import { get as httpsGet, type RequestOptions } from 'node:https';
import { emitSection } from '../../src/config/sections/emit.js';
import type { TlsServerConfig } from '../../src/config/sections/tls.js';
import { createMeters, createMetricsEndpoint, type MetricsEndpoint } from '../../src/telemetry/metrics.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { deadlineIn } from '../ingest/receivers.js';
import { makePki, opensslMissing, pem, suiteName, type Issued, type TestPki } from './certs.js';

/** Status and body of a GET, or the error code when there is no HTTP answer. */
function fetchOnce(url: string, options: RequestOptions = {}): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { ...options, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

describe.skipIf(opensslMissing !== undefined)(suiteName('metrics listener over HTTPS'), () => {
  let pki: TestPki;
  let client: Issued;
  const endpoints: MetricsEndpoint[] = [];

  beforeAll(() => {
    pki = makePki();
    pki.server('server', 0x1001);
    client = pki.client('client', 0x3001);
  });
  afterAll(async () => {
    await Promise.all(endpoints.map((e) => e.shutdown(deadlineIn())));
    pki.dispose();
  });

  async function endpoint(mtls: boolean): Promise<MetricsEndpoint> {
    const tls: TlsServerConfig = { certFile: `${pki.dir}/server.pem`, keyFile: `${pki.dir}/server.key`, ...(mtls ? { clientCaFile: pki.ca.cert } : {}), minVersion: 'TLSv1.2', reloadIntervalMs: 30_000 };
    const meters = createMeters({ emit: emitSection.parse({}), env: {}, resource: resourceFromAttributes({}) });
    meters.provider.getMeter('test').createCounter('tls_test_requests').add(3);
    const e = createMetricsEndpoint({ meters, host: '127.0.0.1', port: 0, logger: silentLogger(), tls });
    await e.start();
    endpoints.push(e);
    return e;
  }

  it('serves /metrics over HTTPS to a client trusting the CA, and nothing in clear', async () => {
    const e = await endpoint(false);
    expect(e.url).toBe(`https://127.0.0.1:${e.port}/metrics`);
    const ok = await fetchOnce(e.url as string, { ca: pem(pki.ca.cert) });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('tls_test_requests');
    const untrusting = await fetchOnce(e.url as string);
    expect(untrusting.error).toMatch(/CERT|SELF_SIGNED|ISSUER|VERIFY/);
    const plain = await fetchOnce((e.url as string).replace('https:', 'http:'));
    expect(plain.status).toBeUndefined();
  });

  it('under mTLS answers only a client with a CA-signed certificate', async () => {
    const e = await endpoint(true);
    const anonymous = await fetchOnce(e.url as string, { ca: pem(pki.ca.cert) });
    expect(anonymous.status).toBeUndefined();
    const ok = await fetchOnce(e.url as string, { ca: pem(pki.ca.cert), cert: pem(client.cert), key: pem(client.key) });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('tls_test_requests');
  });
});
