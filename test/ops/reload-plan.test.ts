import { describe, expect, it } from 'vitest';
import { configDiff } from '../../src/config/diff.js';
import { parseConfig } from '../../src/config/load.js';
import { BearerAuth } from '../../src/ingest/otlp/bearer-auth.js';
import { configHash, planReload } from '../../src/service/reload.js';

const cfg = (raw: unknown) => parseConfig(raw, 'test', {});

describe('configDiff', () => {
  it('names every differing leaf by its key path, record keys quoted', () => {
    const a = cfg({ assembly: { decisionWaitMs: 1000 }, sampling: { agents: { 'billing-*': { rate: 0.5 } } } });
    const b = cfg({ assembly: { decisionWaitMs: 2000 }, sampling: { agents: { 'billing-*': { rate: 0.2 } } }, emit: { jsonl: { path: '/tmp/x.jsonl' } } });
    expect(configDiff(a, b)).toEqual(['assembly.decisionWaitMs', 'emit.jsonl.path', 'sampling.agents["billing-*"].rate']);
    expect(configDiff(a, a)).toEqual([]);
  });

  it('compares arrays whole', () => {
    expect(configDiff(cfg({ sources: { kafka: { brokers: ['a:1'] } } }), cfg({ sources: { kafka: { brokers: ['a:1', 'b:2'] } } }))).toEqual(['sources.kafka.brokers']);
  });
});

describe('planReload', () => {
  const started = cfg({ sources: { otlp: { auth: { bearerToken: 'one-token' } } }, assembly: { decisionWaitMs: 1000 } });

  it('applies the token and sampling live and names every other change as needing a restart, without values', () => {
    const next = cfg({ sources: { otlp: { auth: { bearerToken: 'two-token' } } }, assembly: { decisionWaitMs: 2000 }, sampling: { default: { rate: 0.5 } }, judge: { apiKey: 'sk-secret-value' } });
    const plan = planReload(started, started, next);
    // The sampling section is absent from the first config: it is named as a whole.
    expect(plan.applied).toEqual(['sampling', 'sources.otlp.auth.bearerToken']);
    expect(plan.restartRequired).toEqual(['assembly.decisionWaitMs', 'judge.apiKey']);
    expect(JSON.stringify(plan)).not.toContain('sk-secret-value');
    expect(JSON.stringify(plan)).not.toContain('two-token');
  });

  it('keeps naming a key waiting for a restart at the next reload; a change back clears it', () => {
    const changed = cfg({ sources: { otlp: { auth: { bearerToken: 'one-token' } } }, assembly: { decisionWaitMs: 2000 } });
    expect(planReload(started, changed, changed)).toEqual({ applied: [], restartRequired: ['assembly.decisionWaitMs'] });
    expect(planReload(started, changed, started)).toEqual({ applied: [], restartRequired: [] });
  });

  it('hashes the effective config', () => {
    expect(configHash(started)).toBe(configHash(cfg({ sources: { otlp: { auth: { bearerToken: 'one-token' } } }, assembly: { decisionWaitMs: 1000 } })));
    expect(configHash(started)).not.toBe(configHash(cfg({ sources: { otlp: { auth: { bearerToken: 'two-token' } } }, assembly: { decisionWaitMs: 1000 } })));
  });

  it('reports a bad grace with its key path', () => {
    expect(() => cfg({ sources: { otlp: { auth: { previousTokenGraceMs: -1 } } } })).toThrow(/sources\.otlp\.auth\.previousTokenGraceMs/);
    expect(() => cfg({ telemetry: { health: { maxEmitHeldMs: 0 } } })).toThrow(/telemetry\.health\.maxEmitHeldMs/);
  });
});

describe('BearerAuth', () => {
  it('accepts the old token only within the grace, the new one at once', () => {
    let now = 1000;
    const auth = new BearerAuth('old-token', () => now);
    expect(auth.accepts('Bearer old-token')).toBe(true);
    expect(auth.accepts('Bearer new-token')).toBe(false);
    expect(auth.rotate('new-token', 500)).toBe(true);
    expect(auth.accepts('Bearer new-token')).toBe(true);
    expect(auth.accepts('Bearer old-token')).toBe(true);
    now += 500;
    expect(auth.accepts('Bearer old-token')).toBe(false);
    expect(auth.accepts('Bearer new-token')).toBe(true);
    expect(auth.accepts(undefined)).toBe(false);
  });

  it('refuses the old token at once with no grace; no token accepts everything; the same token is no rotation', () => {
    const auth = new BearerAuth('old-token');
    expect(auth.rotate('old-token', 1000)).toBe(false);
    auth.rotate('new-token', 0);
    expect(auth.accepts('Bearer old-token')).toBe(false);
    auth.rotate(undefined, 1000);
    expect(auth.accepts(undefined)).toBe(true);
    auth.rotate('third-token', 1000);
    expect(auth.accepts(undefined)).toBe(false);
    expect(auth.accepts('Bearer new-token')).toBe(false);
  });
});
