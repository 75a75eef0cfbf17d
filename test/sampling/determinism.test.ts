import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashToUnitInterval, sampledAtRate } from '../../src/sampling/hash.js';
import { traceIds } from './helpers.js';

const child = fileURLToPath(new URL('./fixtures/decide-child.ts', import.meta.url));

function runChild(input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'silent' } });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
    p.stdin.end(input);
  });
}

describe('two processes decide identically', () => {
  it('agree with each other and with this process on 20,000 ids', async () => {
    const ids = traceIds(20_000, 99);
    const [a, b] = await Promise.all([runChild(ids.join('\n')), runChild(ids.join('\n'))]);
    const la = a.trim().split('\n');
    const lb = b.trim().split('\n');
    expect(la).toHaveLength(ids.length);
    expect(la).toEqual(lb);
    la.forEach((line, i) => {
      const id = ids[i] as string;
      const bits = [0.01, 0.1, 0.5].map((r) => (sampledAtRate(id, r) ? '1' : '0')).join('');
      expect(line).toBe(`${hashToUnitInterval(id)} ${bits}`);
    });
    expect(la.some((l) => l.endsWith('1'))).toBe(true);
  }, 60_000);
});
