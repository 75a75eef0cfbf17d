import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import { PolicyHolder } from '../../src/sampling/holder.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { watchConfig, type ConfigWatcher } from '../../src/sampling/reload.js';
import { makeInput } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tj-reload-'));
const watchers: ConfigWatcher[] = [];
afterAll(() => {
  for (const w of watchers) w.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const valid: Config[] = [];
  const invalid: Error[] = [];
  const w = watchConfig(file, (c) => valid.push(c), (e) => invalid.push(e), { debounceMs: 50, env: {} });
  watchers.push(w);
  return { file, valid, invalid, w };
}

const wait = { timeout: 5000, interval: 20 };

describe('watchConfig', () => {
  it('delivers a valid edited file, and keeps the old one (reporting every issue) on an invalid edit', async () => {
    const { file, valid, invalid } = setup('a.yaml', 'sampling:\n  default: { rate: 0.1 }\n');
    const holder = new PolicyHolder(createSamplingPolicy({ respectUpstream: true, default: { rate: 0 } }));
    const onValid = (c: Config) => holder.swap(createSamplingPolicy(c.sampling));

    writeFileSync(file, 'sampling:\n  default: { rate: 1 }\n');
    await vi.waitFor(() => expect(valid).toHaveLength(1), wait);
    onValid(valid[0] as Config);
    expect(valid[0]?.sampling?.default?.rate).toBe(1);
    expect(holder.current().decide(makeInput(), 0).sampled).toBe(true);

    writeFileSync(file, 'sampling:\n  default: { rate: 7 }\n  agents: { "billing-*": { rate: -1 } }\n');
    await vi.waitFor(() => expect(invalid).toHaveLength(1), wait);
    const err = invalid[0];
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues.map((i) => i.path).sort()).toEqual(['sampling.agents["billing-*"].rate', 'sampling.default.rate']);
    expect(valid).toHaveLength(1);
    expect(holder.current().decide(makeInput(), 0).sampled).toBe(true);
  });

  it('follows a file replaced by rename (editor / config-map style)', async () => {
    const { file, valid } = setup('b.yaml', 'sampling:\n  default: { rate: 0.1 }\n');
    const tmp = join(dir, 'b.yaml.tmp');
    writeFileSync(tmp, 'sampling:\n  default: { rate: 0.25 }\n');
    renameSync(tmp, file);
    await vi.waitFor(() => expect(valid.at(-1)?.sampling?.default?.rate).toBe(0.25), wait);
    writeFileSync(tmp, 'sampling:\n  default: { rate: 0.5 }\n');
    renameSync(tmp, file);
    await vi.waitFor(() => expect(valid.at(-1)?.sampling?.default?.rate).toBe(0.5), wait);
  });

  it('reports YAML syntax errors as invalid', async () => {
    const { file, invalid } = setup('c.yaml', 'sampling: {}\n');
    writeFileSync(file, 'sampling:\n  default: { rate: 0.1\n');
    await vi.waitFor(() => expect(invalid).toHaveLength(1), wait);
    expect(invalid[0]).toBeInstanceOf(ConfigError);
    expect((invalid[0] as ConfigError).issues[0]?.message).toMatch(/flow|collection|map|expected/i);
  });

  it('reloads on SIGHUP, even when the file is unchanged', async () => {
    const { valid } = setup('d.yaml', 'sampling:\n  default: { rate: 0.3 }\n');
    process.kill(process.pid, 'SIGHUP');
    await vi.waitFor(() => expect(valid).toHaveLength(1), wait);
    expect(valid[0]?.sampling?.default?.rate).toBe(0.3);
  });

  it('stops after close()', async () => {
    const { file, valid, w } = setup('e.yaml', 'sampling: {}\n');
    w.close();
    w.close();
    writeFileSync(file, 'sampling:\n  default: { rate: 0.9 }\n');
    w.reload();
    await new Promise((r) => setTimeout(r, 300));
    expect(valid).toHaveLength(0);
  });
});

describe('swap under load', () => {
  it('every run gets exactly one decision per scorer, all from one policy version', async () => {
    const rates = [0, 1];
    const holder = new PolicyHolder(createSamplingPolicy({ respectUpstream: true, default: { rate: 0 } }));
    const decisions = new Map<number, { scorer: string; sampled: boolean; version: number }[]>();
    const scorers = ['a', 'b', 'c'];
    async function processRun(i: number): Promise<void> {
      for (let k = 0; k < i % 40; k++) await new Promise<void>((r) => setImmediate(r)); // runs arrive over time
      const version = holder.version;
      const policy = holder.current(); // pinned once per run
      const list: { scorer: string; sampled: boolean; version: number }[] = [];
      for (const scorer of scorers) {
        await new Promise<void>((r) => setImmediate(r)); // let swaps interleave between scorers
        list.push({ scorer, sampled: policy.decide(makeInput({ scorer }), 0).sampled, version });
      }
      decisions.set(i, list);
    }
    const swapper = (async () => {
      for (let k = 1; k <= 20; k++) {
        await new Promise<void>((r) => setImmediate(r));
        holder.swap(createSamplingPolicy({ respectUpstream: true, default: { rate: rates[k % 2] as number } }));
      }
    })();
    await Promise.all([...Array.from({ length: 300 }, (_, i) => processRun(i)), swapper]);
    expect(holder.version).toBe(20);
    expect(decisions.size).toBe(300);
    const versions = new Set([...decisions.values()].map((l) => l[0]?.version));
    expect(versions.size).toBeGreaterThan(5);
    for (const list of decisions.values()) {
      expect(list.map((d) => d.scorer)).toEqual(scorers);
      const first = list[0]?.sampled;
      expect(list.every((d) => d.sampled === first)).toBe(true);
      expect(first).toBe((list[0]?.version ?? 0) % 2 === 1);
    }
  });
});
