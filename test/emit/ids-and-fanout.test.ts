import { describe, expect, it } from 'vitest';
import { carrierSpanIdFor, evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { combineResults, FanoutEmitter } from '../../src/emit/fanout.js';
import { evaluationTimes } from '../../src/emit/carrier-span.js';
import type { EmitResult, Emitter } from '../../src/emit/emitter.js';
import { AgentNameLimiter } from '../../src/telemetry/agent-limiter.js';
import { scoreRecord } from './records.js';

describe('evaluation ids', () => {
  const V = '3f2a9c1e5b7d';
  it('are deterministic, case-insensitive in the ids, and differ per scorer, scorer version, span and trace', () => {
    const a = evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'hallucination', V);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(evaluationIdFor('0AF7651916CD43DD8448EB211C80319C', 'B7AD6B7169203331', 'hallucination', V)).toBe(a);
    expect(evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'relevancy', V)).not.toBe(a);
    expect(evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'hallucination', '3f2a9c1e5b7e')).not.toBe(a);
    expect(evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203332', 'hallucination', V)).not.toBe(a);
    expect(evaluationIdFor('1af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'hallucination', V)).not.toBe(a);
  });

  it('are the documented SHA-256 prefixes (vectors from coreutils sha256sum)', () => {
    // printf '%s' '0af7…319c/b7ad…3331/hallucination/3f2a9c1e5b7d' | sha256sum → 119b4b8827678bda416962d150c7396f…
    const id = evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'hallucination', V);
    expect(id).toBe('119b4b8827678bda416962d150c7396f');
    // printf '%s' 119b…396f | sha256sum → a783a18dd58f6142…
    expect(carrierSpanIdFor(id)).toBe('a783a18dd58f6142');
    // The key is hashed as UTF-8 (a scorer name may be any text): printf '%s' '0af7…319c/b7ad…3331/grounding-ü/3f2a9c1e5b7d' | sha256sum.
    expect(evaluationIdFor('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'grounding-ü', V)).toBe('cf17e16bce3e4ab3700fe563f7efedbe');
  });

  it('give a carrier span id of 16 hex chars that is never all zero', () => {
    const id = carrierSpanIdFor('e1');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(carrierSpanIdFor('e1')).toBe(id);
    expect(carrierSpanIdFor('e2')).not.toBe(id);
    const ids = new Set(Array.from({ length: 2000 }, (_, i) => carrierSpanIdFor(`eval-${i}`)));
    expect(ids.size).toBe(2000);
    expect(ids.has('0000000000000000')).toBe(false);
  });

  it('derive the span times from startTime, or from timestamp minus durationMs', () => {
    const withStart = evaluationTimes(scoreRecord({ startTime: '2026-08-20T10:00:00.100123456Z', timestamp: '2026-08-20T10:00:01Z' }));
    expect(withStart.start[1]).toBe(100_123_456);
    const derived = evaluationTimes(scoreRecord({ startTime: undefined, timestamp: '2026-08-20T10:00:01.000Z', durationMs: 250 }));
    expect(derived.end[0] - derived.start[0]).toBe(1);
    expect(derived.start[1]).toBe(750_000_000);
    const inverted = evaluationTimes(scoreRecord({ startTime: '2026-08-20T10:00:05Z', timestamp: '2026-08-20T10:00:01Z' }));
    expect(inverted.start).toEqual(inverted.end);
  });
});

describe('fan-out', () => {
  const fixed = (name: string, result: EmitResult, seen: string[]): Emitter => ({
    name,
    start: () => Promise.resolve(),
    emit: (records) => {
      seen.push(`${name}:${records.length}`);
      return Promise.resolve(result);
    },
    shutdown: () => Promise.resolve(),
  });

  it('hands every record to every emitter and combines the results', async () => {
    const seen: string[] = [];
    const ok = new FanoutEmitter([fixed('a', { code: 'success' }, seen), fixed('b', { code: 'success' }, seen)]);
    expect(await ok.emit([scoreRecord(), scoreRecord()])).toEqual({ code: 'success' });
    expect(seen).toEqual(['a:2', 'b:2']);
  });

  it('prefers retryable over permanent over success, naming the emitters', () => {
    const perm: EmitResult = { code: 'permanent', error: new Error('refused') };
    const retry: EmitResult = { code: 'retryable', error: new Error('down'), retryAfterMs: 200 };
    expect(combineResults([['a', { code: 'success' }], ['b', perm]])).toMatchObject({ code: 'permanent' });
    const combined = combineResults([['a', perm], ['kafka', retry]]);
    expect(combined.code).toBe('retryable');
    expect(combined.code === 'retryable' && combined.retryAfterMs).toBe(200);
    expect(combined.code === 'retryable' && combined.error.message).toBe('kafka: down');
  });
});

describe('agent name bound', () => {
  it('keeps the first maxAgents names and reports the rest as other', () => {
    const limiter = new AgentNameLimiter({ maxAgents: 2, allowAgents: [] });
    expect(['a', 'b', 'c', 'a', 'd', 'b'].map((n) => limiter.label(n))).toEqual(['a', 'b', 'other', 'a', 'other', 'b']);
    expect(limiter.label('')).toBe('other');
  });

  it('applies an allow list with globs before the cap', () => {
    const limiter = new AgentNameLimiter({ maxAgents: 10, allowAgents: ['support-agent', 'billing-*'] });
    expect(['support-agent', 'billing-eu', 'rogue', 'billing-us'].map((n) => limiter.label(n))).toEqual(['support-agent', 'billing-eu', 'other', 'billing-us']);
  });
});
