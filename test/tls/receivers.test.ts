/**
 * The OTLP receivers over TLS and mTLS, with real OTel exporters as clients and certificates made by openssl:
 * a client trusting the CA is accepted; a plaintext client, a client that does not trust the CA, and (under
 * mTLS) a client without a certificate or with one from another CA are refused, and nothing of theirs is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, Metadata } from '@grpc/grpc-js';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { request } from 'node:http';
import pino from 'pino';
import { componentSettings } from '../../src/component.js';
import type { TlsServerConfig } from '../../src/config/sections/tls.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { listensBeyondLoopback, type OtlpReceiver } from '../../src/ingest/otlp/receiver.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { deadlineIn, exportSpans, testIngest, TOKEN } from '../ingest/receivers.js';
import { makePki, opensslMissing, pem, suiteName, type Issued, type TestPki } from './certs.js';

type Kind = 'http' | 'grpc';
interface Client {
  /** Trust the test CA (else only the system roots). */
  ca?: boolean;
  /** Present this client certificate. */
  cert?: Issued;
  /** Speak plaintext to the TLS port. */
  plaintext?: boolean;
}

describe.skipIf(opensslMissing !== undefined)(suiteName('OTLP receivers over TLS'), () => {
  let pki: TestPki;
  let spans: ReadableSpan[];
  let client: Issued;
  let foreignClient: Issued;
  const started: OtlpReceiver[] = [];
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });

  beforeAll(async () => {
    pki = makePki();
    pki.server('server', 0x1001);
    client = pki.client('client', 0x3001);
    foreignClient = pki.client('foreign-client', 0x3002, 'other');
    spans = await makeTestSpans(2);
  });
  afterAll(async () => {
    await Promise.all(started.map((r) => r.shutdown(deadlineIn())));
    pki.dispose();
  });

  async function receiver(kind: Kind, mtls: boolean): Promise<{ port: number; sink: RecordingSpanSink }> {
    const sink = new RecordingSpanSink();
    const settings = componentSettings({ logger });
    const ingest = testIngest(sink, settings);
    const tls: TlsServerConfig = { certFile: `${pki.dir}/server.pem`, keyFile: `${pki.dir}/server.key`, ...(mtls ? { clientCaFile: pki.ca.cert } : {}), minVersion: 'TLSv1.2', reloadIntervalMs: 30_000 };
    const r =
      kind === 'http'
        ? createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, bearerToken: TOKEN, ingest, settings, isReady: () => true, tls })
        : createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 20, bearerToken: TOKEN, ingest, settings, tls });
    await r.start();
    started.push(r);
    return { port: r.port, sink };
  }

  function exporter(kind: Kind, port: number, c: Client): SpanExporter {
    const ca = c.ca ? pem(pki.ca.cert) : undefined;
    const key = c.cert ? pem(c.cert.key) : undefined;
    const cert = c.cert ? pem(c.cert.cert) : undefined;
    if (kind === 'http') {
      const url = `${c.plaintext ? 'http' : 'https'}://127.0.0.1:${port}/v1/traces`;
      return new HttpProtoExporter({ url, headers: { authorization: `Bearer ${TOKEN}` }, timeoutMillis: 5000, httpAgentOptions: c.plaintext ? {} : { ca, key, cert } });
    }
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${TOKEN}`);
    const creds = c.plaintext ? credentials.createInsecure() : credentials.createSsl(ca ?? null, key ?? null, cert ?? null);
    return new GrpcExporter({ url: `127.0.0.1:${port}`, metadata, credentials: creds, timeoutMillis: 5000 });
  }

  async function send(kind: Kind, port: number, c: Client): Promise<{ code: ExportResultCode; error: string | undefined }> {
    const e = exporter(kind, port, c);
    const result = await exportSpans(e, spans);
    await e.shutdown();
    return { code: result.code, error: result.error?.message };
  }

  describe.each<Kind>(['http', 'grpc'])('%s', (kind) => {
    it('accepts a real OTel exporter that trusts the CA', async () => {
      const { port, sink } = await receiver(kind, false);
      const r = await send(kind, port, { ca: true });
      expect(r.error).toBeUndefined();
      expect(r.code).toBe(ExportResultCode.SUCCESS);
      expect(new Set(sink.spans.map((s) => s.spanId))).toEqual(new Set(spans.map((s) => s.spanContext().spanId)));
    });

    it('refuses a plaintext client and a client that does not trust the CA', async () => {
      const { port, sink } = await receiver(kind, false);
      const plain = await send(kind, port, { plaintext: true });
      expect(plain.code).toBe(ExportResultCode.FAILED);
      const untrusting = await send(kind, port, {});
      expect(untrusting.code).toBe(ExportResultCode.FAILED);
      expect(untrusting.error).toMatch(/certificate|self.signed|issuer|UNAVAILABLE/i);
      expect(sink.spans).toHaveLength(0);
    });

    it('under mTLS refuses a client without a certificate or with one from another CA, and accepts the CA-signed one', async () => {
      const { port, sink } = await receiver(kind, true);
      warnings.length = 0;
      const anonymous = await send(kind, port, { ca: true });
      expect(anonymous.code).toBe(ExportResultCode.FAILED);
      const foreign = await send(kind, port, { ca: true, cert: foreignClient });
      expect(foreign.code).toBe(ExportResultCode.FAILED);
      expect(sink.spans).toHaveLength(0);
      const good = await send(kind, port, { ca: true, cert: client });
      expect(good.error).toBeUndefined();
      expect(good.code).toBe(ExportResultCode.SUCCESS);
      expect(sink.spans).toHaveLength(spans.length);
      // HTTP counts refused handshakes in a throttled warning (grpc-js keeps its HTTP/2 server to itself).
      if (kind === 'http') expect(warnings.join('')).toContain('refused TLS handshakes on OTLP/HTTP');
    });
  });

  it('an HTTP request in clear to the HTTPS port gets no HTTP answer', async () => {
    const { port } = await receiver('http', false);
    const outcome = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: 5000 }, (res) => resolve(`status ${res.statusCode}`));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.end();
    });
    expect(outcome).toMatch(/ECONNRESET|socket hang up|EPIPE|HPE_/);
  });

  it('tells loopback listeners (where a plaintext token is not exposed) from the others', () => {
    expect(['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'].map(listensBeyondLoopback)).toEqual([false, false, false, false, false]);
    expect(['0.0.0.0', '::', '10.0.0.5', 'collector.internal'].map(listensBeyondLoopback)).toEqual([true, true, true, true]);
  });

  it('a receiver whose certificate file is missing does not start, and says which key and file', async () => {
    const settings = componentSettings();
    const missing = `${pki.dir}/nope.pem`;
    const r = createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 20, ingest: testIngest(new RecordingSpanSink(), settings), settings, tls: { certFile: missing, keyFile: `${pki.dir}/server.key`, minVersion: 'TLSv1.2', reloadIntervalMs: 30_000 } });
    await expect(r.start()).rejects.toThrow(`sources.otlp.grpc.tls.certFile: file ${missing} does not exist`);
    await r.shutdown(deadlineIn());
  });
});
