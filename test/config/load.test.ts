import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandEnv, loadConfig, parseConfig, parseConfigText, resolveConfigPath } from '../../src/config/load.js';
import { formatPath } from '../../src/config/path.js';
import { ConfigError, ErrorCodes, TracejudgeError } from '../../src/errors.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';

function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return [...err.issues];
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('${VAR} expansion', () => {
  it('expands inside strings, with and without defaults', () => {
    const env = { HOST: '0.0.0.0', EMPTY: '' };
    expect(expandEnv('http://${HOST}:1', env)).toBe('http://0.0.0.0:1');
    expect(expandEnv('x-${MISSING:-dflt}-${EMPTY:-e}', env)).toBe('x-dflt-e');
    expect(expandEnv('x-${MISSING}-y', env)).toBe('x--y');
  });

  it('keeps a whole-placeholder number a number, and drops an unset whole placeholder so the default applies', () => {
    const yaml = `
sources:
  otlp:
    http:
      port: \${HTTP_PORT}
      host: \${HOST:-127.0.0.2}
    grpc:
      port: \${GRPC_PORT:-4999}
      enabled: \${GRPC_ON}
telemetry:
  shutdownTimeoutMs: \${UNSET_TIMEOUT}
`;
    const config = parseConfigText(yaml, 'env.yaml', { HTTP_PORT: '4319', GRPC_ON: 'false' });
    expect(config.sources.otlp.http.port).toBe(4319);
    expect(config.sources.otlp.http.host).toBe('127.0.0.2');
    expect(config.sources.otlp.grpc.port).toBe(4999);
    expect(config.sources.otlp.grpc.enabled).toBe(false);
    expect(config.telemetry.shutdownTimeoutMs).toBe(10_000);
  });

  it('a placeholder that expands to a non-number where a number is needed is an error at its path', () => {
    const issues = issuesOf(() => parseConfigText('assembly: { decisionWaitMs: "${WAIT}" }', 'c.yaml', { WAIT: 'soon' }));
    expect(issues.map((i) => i.path)).toEqual(['assembly.decisionWaitMs']);
  });
});

describe('validation errors', () => {
  it('reports every error of a broken config with its key path, several at once', () => {
    const yaml = `
sampling:
  agents:
    "billing-*": { rate: 1.5 }
assembly:
  decisionWaitMs: soon
  bogus: 1
sources:
  otlp:
    http: { port: 70000 }
telemetry: { logLevel: loud }
nonsense: true
`;
    const issues = issuesOf(() => parseConfigText(yaml, 'broken.yaml', {}));
    const lines = issues.map((i) => `${i.path}: ${i.message}`);
    expect(lines).toContain('sampling.agents["billing-*"].rate: must be between 0 and 1');
    expect(lines).toContain('assembly.bogus: unknown key');
    expect(lines).toContain('nonsense: unknown key');
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['assembly.decisionWaitMs', 'sources.otlp.http.port', 'telemetry.logLevel']));
    expect(issues.length).toBeGreaterThanOrEqual(6);
  });

  it('names the file and the first issue in the one-line message', () => {
    try {
      parseConfigText('assembly: { maxBufferedTraces: 0 }', 'one.yaml', {});
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toMatch(/^one\.yaml: assembly\.maxBufferedTraces: /);
      expect((err as ConfigError).code).toBe(ErrorCodes.CONFIG_INVALID);
    }
  });

  it('reports YAML syntax errors with line and column', () => {
    const issues = issuesOf(() => parseConfigText('assembly:\n  decisionWaitMs: 1\n  tickMs: [1, 2\n', 'syntax.yaml', {}));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]?.path).toMatch(/^line \d+, column \d+$/);
    const dup = issuesOf(() => parseConfigText('telemetry: {}\ntelemetry: {}\n', 'dup.yaml', {}));
    expect(dup[0]?.path).toBe('line 2, column 1');
  });

  it('formats paths with quoted segments and indices', () => {
    expect(formatPath(['sampling', 'agents', 'billing-*', 'rate'])).toBe('sampling.agents["billing-*"].rate');
    expect(formatPath(['sources', 'kafka', 'brokers', 0])).toBe('sources.kafka.brokers[0]');
  });
});

describe('one pass', () => {
  it('reports schema errors, scorer options by type and cross-references together, whatever else is wrong', () => {
    let issues: { path: string; message: string }[] = [];
    try {
      parseConfig(
        {
          assembly: { bogus: 1, decisionWaitMs: -5 },
          sampling: { default: { rate: 2 } },
          scorers: { sim: { type: 'content-similarity', ignoreCase: 'yes', extra: true }, nope: { type: 'no-such-type' }, ok: { type: 'tone' } },
          economics: { budgets: [{ agent: '*', perDay: { requests: 1 }, fallback: 'missing' }] },
        },
        'bad.yaml',
        {},
        { scorers: createScorerRegistry() },
      );
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      issues = [...err.issues];
    }
    const paths = issues.map((i) => i.path);
    for (const p of ['assembly.bogus', 'assembly.decisionWaitMs', 'sampling.default.rate', 'scorers.sim.ignoreCase', 'scorers.sim.extra', 'scorers.nope.type', 'economics.budgets[0].fallback']) {
      expect(paths, JSON.stringify(issues)).toContain(p);
    }
    expect(issues.find((i) => i.path === 'scorers.sim.extra')?.message).toBe('unknown option for type content-similarity');
  });

  it('without a registry, scorer options are not checked against their type (the library default)', () => {
    expect(() => parseConfig({ scorers: { sim: { type: 'content-similarity', ignoreCase: 'yes' } } }, 't', {})).not.toThrow();
  });
});

describe('loading', () => {
  it('returns a deeply frozen config', () => {
    const config = parseConfig({ assembly: { decisionWaitMs: 10 } }, 'x', {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.assembly)).toBe(true);
    expect(Object.isFrozen(config.sources.kafka.brokers)).toBe(true);
    expect(() => {
      (config.assembly as { decisionWaitMs: number }).decisionWaitMs = 1;
    }).toThrow(TypeError);
  });

  it('built-in defaults match docs/configuration.md, "The embedded default"/§4 fixed points', () => {
    const c = loadConfig(undefined, {});
    expect(c.sources.otlp.http).toMatchObject({ host: '127.0.0.1', port: 4318, enabled: true });
    expect(c.sources.otlp.grpc).toMatchObject({ host: '127.0.0.1', port: 4317, enabled: true });
    expect(c.sources.kafka).toMatchObject({ enabled: false, topic: 'otlp_spans', groupId: 'tracejudge', encoding: 'otlp_proto', initialOffset: 'latest' });
    expect(c.assembly).toMatchObject({ decisionWaitMs: 5000, maxBufferedTraces: 50_000 });
    expect(c.emit.stdout.enabled).toBe(true);
    expect(c.emit.prometheus).toMatchObject({ host: '127.0.0.1', port: 9464 });
  });

  it('resolves the config path: -c, else TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tj-config-'));
    expect(resolveConfigPath(undefined, {}, dir)).toBeUndefined();
    writeFileSync(join(dir, 'tracejudge.yaml'), 'assembly: { tickMs: 7 }\n');
    expect(resolveConfigPath(undefined, {}, dir)).toBe(join(dir, 'tracejudge.yaml'));
    expect(resolveConfigPath(undefined, { TRACEJUDGE_CONFIG: 'env.yaml' }, dir)).toBe(join(dir, 'env.yaml'));
    expect(resolveConfigPath('cli.yaml', { TRACEJUDGE_CONFIG: 'env.yaml' }, dir)).toBe(join(dir, 'cli.yaml'));
    expect(loadConfig(resolveConfigPath(undefined, {}, dir), {}).assembly.tickMs).toBe(7);
  });

  it('an unreadable config file is a coded error naming the file', () => {
    try {
      loadConfig('/nonexistent/tracejudge.yaml', {});
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TracejudgeError);
      expect((err as TracejudgeError).code).toBe(ErrorCodes.CONFIG_UNREADABLE);
      expect((err as TracejudgeError).message).toContain('/nonexistent/tracejudge.yaml');
    }
  });
});
