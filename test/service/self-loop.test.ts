/** Self-loop detection (issue 32, item 4): which export endpoints are one of the service's own receivers. */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { findSelfLoop, selfLoopMessage } from '../../src/service/self-loop.js';

const config = (raw: Record<string, unknown> = {}) => parseConfig(raw, '<test>', {});

describe('findSelfLoop', () => {
  const defaults = config();
  it.each([
    ['http://localhost:4318', 'sources.otlp.http'],
    ['http://127.0.0.1:4318/', 'sources.otlp.http'],
    ['http://0.0.0.0:4318', 'sources.otlp.http'],
    ['http://[::1]:4318', 'sources.otlp.http'],
    ['http://127.0.1.1:4318', 'sources.otlp.http'],
    [`http://${hostname()}:4318`, 'sources.otlp.http'],
    ['http://localhost:4317', 'sources.otlp.grpc'],
    ['localhost:4317', 'sources.otlp.grpc'],
  ])('OTEL_EXPORTER_OTLP_ENDPOINT=%s is the receiver %s', (endpoint, receiver) => {
    expect(findSelfLoop(defaults, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toMatchObject({ source: 'OTEL_EXPORTER_OTLP_ENDPOINT', endpoint, receiver });
  });

  it.each([
    ['another port on this host', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:14318' }],
    ['another host on the receiver port', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example:4318' }],
    ['the default https port', { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://localhost' }],
    ['no endpoint', {}],
    ['TRACEJUDGE_OTLP_ENDPOINT elsewhere takes precedence over the app variable', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318', TRACEJUDGE_OTLP_ENDPOINT: 'http://collector:4318' }],
  ])('no loop: %s', (_what, env) => {
    expect(findSelfLoop(defaults, env)).toBeUndefined();
  });

  it('names the signal variable, emit.otlp.endpoint and TRACEJUDGE_OTLP_ENDPOINT as their sources', () => {
    expect(findSelfLoop(defaults, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://localhost:4318/v1/traces' })?.source).toBe('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    expect(findSelfLoop(defaults, { TRACEJUDGE_OTLP_ENDPOINT: 'http://127.0.0.1:4317' })).toMatchObject({ source: 'TRACEJUDGE_OTLP_ENDPOINT', receiver: 'sources.otlp.grpc' });
    const own = config({ emit: { otlp: { endpoint: 'http://localhost:5318' } }, sources: { otlp: { http: { port: 5318 } } } });
    // The config key wins over the environment, as in resolveOtlpSettings.
    expect(findSelfLoop(own, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatchObject({ source: 'emit.otlp.endpoint', receiver: 'sources.otlp.http', address: '127.0.0.1:5318' });
  });

  it('ignores a disabled receiver and one on port 0', () => {
    expect(findSelfLoop(config({ sources: { otlp: { grpc: { enabled: false } } } }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4317' })).toBeUndefined();
    expect(findSelfLoop(config({ sources: { otlp: { http: { port: 0 } } } }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:0' })).toBeUndefined();
  });

  it('a receiver on a specific address is this host under that address', () => {
    const c = config({ sources: { otlp: { http: { host: '10.1.2.3' } } } });
    expect(findSelfLoop(c, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://10.1.2.3:4318' })?.receiver).toBe('sources.otlp.http');
    expect(findSelfLoop(c, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://10.1.2.4:4318' })).toBeUndefined();
  });

  it('the message names the variable, the receiver and the fix', () => {
    const loop = findSelfLoop(defaults, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' });
    expect(loop && selfLoopMessage(loop)).toBe(
      "OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 points at tracejudge's own receiver sources.otlp.http (127.0.0.1:4318): its results would come back to it as input; " +
        "OTEL_EXPORTER_OTLP_ENDPOINT is for the app you instrument: unset it in the shell that runs tracejudge, and set emit.otlp.endpoint or TRACEJUDGE_OTLP_ENDPOINT for tracejudge's own export",
    );
  });
});
