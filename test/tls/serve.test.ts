/**
 * `tracejudge serve` with TLS on its three listeners, from a config file: the OTLP/HTTP receiver under mTLS
 * (with the bearer token as well), the gRPC receiver and the metrics/live-page listener over TLS, each
 * reached by a real client trusting the test CA; a certificate file that is missing stops serve at start
 * with the key and the file named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, Metadata } from '@grpc/grpc-js';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { get } from 'node:https';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { childEnv, ServeProcess, sleep } from '../e2e/serve-process.js';
import { exportSpans } from '../ingest/receivers.js';
import { makePki, opensslMissing, pem, suiteName, type Issued, type TestPki } from './certs.js';

const TOKEN = 'tls-serve-token';

function httpsStatus(url: string, ca: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const req = get(url, { ca, timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

describe.skipIf(opensslMissing !== undefined)(suiteName('serve with TLS listeners'), () => {
  let pki: TestPki;
  let client: Issued;
  const serve = new ServeProcess();

  beforeAll(async () => {
    pki = makePki();
    pki.server('server', 0x1001);
    client = pki.client('client', 0x3001);
    const tls = `certFile: ${pki.dir}/server.pem, keyFile: ${pki.dir}/server.key`;
    const yaml = [
      'sources:',
      '  otlp:',
      `    http: { port: 0, tls: { ${tls}, clientCaFile: ${pki.ca.cert} } }`,
      `    grpc: { port: 0, tls: { ${tls}, minVersion: TLSv1.3 } }`,
      `    auth: { bearerToken: ${TOKEN} }`,
      'emit:',
      `  prometheus: { port: 0, tls: { ${tls} } }`,
      '',
    ].join('\n');
    await serve.start(pki.dir, 'serve.yaml', yaml, childEnv({}));
  }, 60_000);
  afterAll(async () => {
    await serve.stop().catch(() => serve.kill());
    pki.dispose();
  });

  it('accepts real exporters over mTLS (HTTP) and TLS (gRPC), and serves /metrics and /readyz over HTTPS', async () => {
    const ca = pem(pki.ca.cert);
    const spans = await makeTestSpans(1);
    const http = new HttpProtoExporter({
      url: `https://127.0.0.1:${serve.ports.http}/v1/traces`,
      headers: { authorization: `Bearer ${TOKEN}` },
      timeoutMillis: 5000,
      httpAgentOptions: { ca, cert: pem(client.cert), key: pem(client.key) },
    });
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${TOKEN}`);
    const grpc = new GrpcExporter({ url: `127.0.0.1:${serve.ports.grpc}`, metadata, credentials: credentials.createSsl(ca), timeoutMillis: 5000 });
    const results = await Promise.all([exportSpans(http, spans), exportSpans(grpc, spans)]);
    await Promise.all([http.shutdown(), grpc.shutdown()]);
    expect(results.map((r) => r.error?.message)).toEqual([undefined, undefined]);
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
    expect(await httpsStatus(`https://127.0.0.1:${serve.ports.metrics}/metrics`, ca)).toBe(200);
    expect(await httpsStatus(`https://127.0.0.1:${serve.ports.metrics}/readyz`, ca)).toBe(200);
    const started = serve.logs().filter((l) => l.msg === 'OTLP/HTTP receiver listening' || l.msg === 'OTLP/gRPC receiver listening');
    expect(started.map((l) => l.tls).sort()).toEqual(['mtls', 'tls']);
  }, 30_000);

  it('stops at start, naming the key and the file, when a certificate file is missing', async () => {
    const failing = new ServeProcess();
    const missing = `${pki.dir}/missing.pem`;
    const yaml = ['sources:', '  otlp:', '    http: { port: 0 }', `    grpc: { port: 0, tls: { certFile: ${missing}, keyFile: ${pki.dir}/server.key } }`, 'emit:', '  prometheus: { port: 0 }', ''].join('\n');
    await expect(failing.start(pki.dir, 'missing.yaml', yaml, childEnv({}))).rejects.toThrow(/exited/);
    await sleep(10);
    expect(failing.stderr).toContain(`sources.otlp.grpc.tls.certFile: file ${missing} does not exist`);
    expect(failing.exitCode).not.toBe(0);
  }, 60_000);
});
