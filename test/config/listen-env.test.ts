/**
 * TRACEJUDGE_HOST and the port variables (issue 32, item 6): they fill the listener keys a config file
 * leaves out, a key in the file wins, a bad port is one error naming the variable, and without them the
 * library's defaults (127.0.0.1, 4318, 4317, 9464) are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { checkConfigText, loadConfig } from '../../src/config/load.js';
import { applyListenEnv } from '../../src/config/listen-env.js';

const listeners = (text: string, env: Record<string, string>) => {
  const c = checkConfigText(text, env);
  return {
    issues: c.issues,
    at: c.config && [c.config.sources.otlp.http, c.config.sources.otlp.grpc, c.config.emit.prometheus].map((l) => `${l.host}:${l.port}`),
  };
};

describe('listen environment variables', () => {
  it('leave the defaults alone when unset or empty', () => {
    expect(listeners('{}', {}).at).toEqual(['127.0.0.1:4318', '127.0.0.1:4317', '127.0.0.1:9464']);
    expect(listeners('{}', { TRACEJUDGE_HOST: '', TRACEJUDGE_METRICS_PORT: ' ' }).at).toEqual(['127.0.0.1:4318', '127.0.0.1:4317', '127.0.0.1:9464']);
  });

  it('set the host of every listener and each port, with no config file', () => {
    const env = { TRACEJUDGE_HOST: '0.0.0.0', TRACEJUDGE_OTLP_HTTP_PORT: '5318', TRACEJUDGE_OTLP_GRPC_PORT: '5317', TRACEJUDGE_METRICS_PORT: '10464' };
    const c = loadConfig(undefined, env);
    expect([c.sources.otlp.http, c.sources.otlp.grpc, c.emit.prometheus].map((l) => `${l.host}:${l.port}`)).toEqual(['0.0.0.0:5318', '0.0.0.0:5317', '0.0.0.0:10464']);
  });

  it('lose to a key written in the file, and win through a placeholder', () => {
    const env = { TRACEJUDGE_HOST: '0.0.0.0', TRACEJUDGE_OTLP_HTTP_PORT: '5318' };
    expect(listeners('sources: { otlp: { http: { host: 127.0.0.1, port: 4000 } } }', env).at).toEqual(['127.0.0.1:4000', '0.0.0.0:4317', '0.0.0.0:9464']);
    expect(listeners('sources:\n  otlp:\n    http: { port: "${TRACEJUDGE_OTLP_HTTP_PORT:-4000}" }\n', env).at?.[0]).toBe('0.0.0.0:5318');
  });

  it('report a port that is not one with the variable name, and a bad host at its key', () => {
    expect(listeners('{}', { TRACEJUDGE_OTLP_GRPC_PORT: '43l7' }).issues).toEqual([
      { path: '$TRACEJUDGE_OTLP_GRPC_PORT', message: 'must be a port from 0 to 65535, got "43l7" (it sets sources.otlp.grpc.port)' },
    ]);
    expect(listeners('{}', { TRACEJUDGE_METRICS_PORT: '70000' }).issues.map((i) => i.path)).toEqual(['$TRACEJUDGE_METRICS_PORT']);
    expect(listeners('{}', { TRACEJUDGE_HOST: 'http://0.0.0.0' }).issues.map((i) => i.path)).toEqual(['sources.otlp.http.host', 'sources.otlp.grpc.host', 'emit.prometheus.host']);
  });

  it('make the duplicate-port check see the ports they set', () => {
    const issues = listeners('{}', { TRACEJUDGE_OTLP_HTTP_PORT: '9464' }).issues;
    expect(issues.map((i) => i.message)).toEqual(['emit.prometheus.port is 9464 too; each listener needs its own port']);
  });

  it('do not change the document they are given', () => {
    const doc = { sources: { otlp: { http: { port: 1 } } } };
    const { doc: out } = applyListenEnv(doc, { TRACEJUDGE_HOST: '::' });
    expect(doc).toEqual({ sources: { otlp: { http: { port: 1 } } } });
    expect(out).toEqual({ sources: { otlp: { http: { port: 1, host: '::' }, grpc: { host: '::' } } }, emit: { prometheus: { host: '::' } } });
  });
});
