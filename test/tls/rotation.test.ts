/**
 * Certificate rotation on the three TLS listeners (OTLP/HTTP, OTLP/gRPC, metrics): the certificate files are
 * replaced in place (key, then certificate, as a rotation tool writes them) and a new connection is served
 * the new certificate, told apart by its serial number, without a restart; a real exporter still gets through.
 * Files replaced by something unusable leave the previous certificate in use, with a warning naming the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '@grpc/grpc-js';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:tls';
import pino from 'pino';
import { componentSettings } from '../../src/component.js';
import { emitSection } from '../../src/config/sections/emit.js';
import type { TlsServerConfig } from '../../src/config/sections/tls.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { createMeters, createMetricsEndpoint } from '../../src/telemetry/metrics.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import type { Component } from '../../src/component.js';
import { deadlineIn, exportSpans, testIngest } from '../ingest/receivers.js';
import { makePki, opensslMissing, pem, suiteName, type TestPki } from './certs.js';

type Kind = 'http' | 'grpc' | 'metrics';
const RELOAD_MS = 100;

/** The serial number of the certificate a new TLS connection to `port` is served (ALPN h2 for gRPC). */
function servedSerial(port: number, ca: Buffer, alpn?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...(alpn ? { ALPNProtocols: [alpn] } : {}), timeout: 5000 }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.destroy();
      resolve(serial);
    });
    socket.on('error', reject);
    socket.on('timeout', () => socket.destroy(new Error('TLS handshake timed out')));
  });
}

/** Polls until a new connection is served `serial` (or `timeoutMs` passes); returns the last serial seen. */
async function waitForSerial(port: number, ca: Buffer, serial: string, alpn?: string, timeoutMs = 5000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let seen = await servedSerial(port, ca, alpn);
  while (seen !== serial && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await servedSerial(port, ca, alpn);
  }
  return seen;
}

describe.skipIf(opensslMissing !== undefined)(suiteName('TLS certificate rotation'), () => {
  let pki: TestPki;
  const components: Component[] = [];
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });

  beforeAll(() => {
    pki = makePki();
  });
  afterAll(async () => {
    await Promise.all(components.map((c) => c.shutdown(deadlineIn())));
    pki.dispose();
  });

  async function start(kind: Kind): Promise<number> {
    pki.server(kind, 0x1001);
    const tls: TlsServerConfig = { certFile: `${pki.dir}/${kind}.pem`, keyFile: `${pki.dir}/${kind}.key`, minVersion: 'TLSv1.2', reloadIntervalMs: RELOAD_MS };
    const settings = componentSettings({ logger });
    const ingest = testIngest(new RecordingSpanSink(), settings);
    if (kind === 'metrics') {
      const meters = createMeters({ emit: emitSection.parse({}), env: {}, resource: resourceFromAttributes({}) });
      const endpoint = createMetricsEndpoint({ meters, host: '127.0.0.1', port: 0, logger, tls });
      await endpoint.start();
      components.push(endpoint);
      return endpoint.port as number;
    }
    const r =
      kind === 'http'
        ? createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, ingest, settings, isReady: () => true, tls })
        : createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 20, ingest, settings, tls });
    await r.start();
    components.push(r);
    return r.port;
  }

  it.each<Kind>(['http', 'grpc', 'metrics'])('%s: a new connection gets the rotated certificate', async (kind) => {
    const port = await start(kind);
    const ca = pem(pki.ca.cert);
    const alpn = kind === 'grpc' ? 'h2' : undefined;
    expect(await servedSerial(port, ca, alpn)).toBe('1001');
    pki.server(kind, 0x1002);
    expect(await waitForSerial(port, ca, '1002', alpn)).toBe('1002');
    if (kind === 'metrics') return;
    // A real exporter connecting afterwards verifies the new certificate against the CA and gets through.
    const exporter =
      kind === 'http'
        ? new HttpProtoExporter({ url: `https://127.0.0.1:${port}/v1/traces`, timeoutMillis: 5000, httpAgentOptions: { ca } })
        : new GrpcExporter({ url: `127.0.0.1:${port}`, credentials: credentials.createSsl(ca), timeoutMillis: 5000 });
    const result = await exportSpans(exporter, await makeTestSpans(1));
    await exporter.shutdown();
    expect(result.error?.message).toBeUndefined();
    expect(result.code).toBe(ExportResultCode.SUCCESS);
  });

  it('files replaced by something unusable leave the previous certificate in use, with a warning', async () => {
    const port = await start('http');
    const ca = pem(pki.ca.cert);
    expect(await servedSerial(port, ca)).toBe('1001');
    writeFileSync(`${pki.dir}/http.pem`, '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n');
    const end = Date.now() + 5000;
    while (!warnings.some((w) => w.includes('sources.otlp.http.tls')) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(warnings.join('')).toContain('sources.otlp.http.tls.certFile');
    expect(await servedSerial(port, ca)).toBe('1001');
    // Fixed files are taken up again.
    pki.server('http', 0x1003);
    expect(await waitForSerial(port, ca, '1003')).toBe('1003');
  });
});
