/**
 * Client TLS of the OTLP emitter: tracejudge's own span exporter (src/otlp/exporters.ts, the official delegates)
 * honours the standard OTEL_EXPORTER_OTLP_CERTIFICATE / _CLIENT_CERTIFICATE / _CLIENT_KEY variables, also when
 * the endpoint comes from `emit.otlp.endpoint`: against an mTLS receiver it gets through with them, and is
 * refused without them. The variables are read when the exporter is made (gRPC: when it connects), so they are
 * set around both and restored after.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { componentSettings } from '../../src/component.js';
import { emitSection } from '../../src/config/sections/emit.js';
import { createOtlpGrpcReceiver } from '../../src/ingest/grpc/receiver.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import type { OtlpReceiver } from '../../src/ingest/otlp/receiver.js';
import { resolveOtlpSettings, type OtlpProtocol } from '../../src/otlp/export-settings.js';
import { createSpanExporter } from '../../src/otlp/exporters.js';
import { makeTestSpans } from '../../src/testing/otel-spans.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { deadlineIn, exportSpans, testIngest } from '../ingest/receivers.js';
import { makePki, opensslMissing, suiteName, type Issued, type TestPki } from './certs.js';

const VARS = ['OTEL_EXPORTER_OTLP_CERTIFICATE', 'OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE', 'OTEL_EXPORTER_OTLP_CLIENT_KEY'] as const;

describe.skipIf(opensslMissing !== undefined)(suiteName('OTLP emitter client TLS from OTEL_EXPORTER_OTLP_* variables'), () => {
  let pki: TestPki;
  let client: Issued;
  let spans: ReadableSpan[];
  const receivers: OtlpReceiver[] = [];
  const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));

  beforeAll(async () => {
    pki = makePki();
    pki.server('server', 0x1001);
    client = pki.client('client', 0x3001);
    spans = await makeTestSpans(1);
  });
  afterEach(() => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.shutdown(deadlineIn())));
    pki.dispose();
  });

  async function mtlsReceiver(protocol: OtlpProtocol): Promise<{ port: number; sink: RecordingSpanSink }> {
    const sink = new RecordingSpanSink();
    const settings = componentSettings();
    const ingest = testIngest(sink, settings);
    const tls = { certFile: `${pki.dir}/server.pem`, keyFile: `${pki.dir}/server.key`, clientCaFile: pki.ca.cert, minVersion: 'TLSv1.2' as const, reloadIntervalMs: 30_000 };
    const r =
      protocol === 'grpc'
        ? createOtlpGrpcReceiver({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 20, ingest, settings, tls })
        : createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, ingest, settings, isReady: () => true, tls });
    await r.start();
    receivers.push(r);
    return { port: r.port, sink };
  }

  async function emit(protocol: OtlpProtocol, port: number): Promise<ExportResultCode> {
    const otlp = emitSection.parse({ otlp: { endpoint: `https://127.0.0.1:${port}`, protocol, timeoutMs: 5000 } }).otlp;
    const settings = resolveOtlpSettings(otlp, {});
    if (!settings) throw new Error('OTLP export is off');
    const exporter = createSpanExporter(settings);
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    return result.code;
  }

  it.each<OtlpProtocol>(['http/protobuf', 'grpc'])('%s: with the CA and client certificate variables it gets through mTLS, without them it is refused', async (protocol) => {
    const { port, sink } = await mtlsReceiver(protocol);
    expect(await emit(protocol, port)).toBe(ExportResultCode.FAILED);
    process.env.OTEL_EXPORTER_OTLP_CERTIFICATE = pki.ca.cert;
    expect(await emit(protocol, port)).toBe(ExportResultCode.FAILED);
    expect(sink.spans).toHaveLength(0);
    process.env.OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE = client.cert;
    process.env.OTEL_EXPORTER_OTLP_CLIENT_KEY = client.key;
    expect(await emit(protocol, port)).toBe(ExportResultCode.SUCCESS);
    expect(sink.spans).toHaveLength(spans.length);
  });
});
