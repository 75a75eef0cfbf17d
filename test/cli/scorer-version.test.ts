/**
 * Scorer versions through the real CLI (issue 31, part 5): `score` with the same config twice writes the
 * same evaluation ids (a replay is idempotent); with one scorer's threshold changed, that scorer's records
 * get a new `scorerVersion` and new ids, the others keep theirs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationIdFor } from '../../src/emit/evaluation-id.js';
import { cliEnv, records, ROOT, runCli } from './run-cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
let dir: string;

function config(name: string, similarityThreshold: number): string {
  const path = join(dir, name);
  writeFileSync(path, ['scorers:', `  similarity: { type: content-similarity, threshold: ${similarityThreshold} }`, '  tools: { type: no-tool-errors, threshold: 0.5 }', ''].join('\n'));
  return path;
}

async function score(configPath: string): Promise<Record<string, Record<string, unknown>>> {
  const r = await runCli(['score', '--all', '-c', configPath, FIXTURE], { env: cliEnv('warn') });
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries(records(r.stdout).map((rec) => [String(rec.scorer), rec]));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tj-version-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('score with a changed scorer', () => {
  it('same config twice: same versions and ids; threshold changed: new version and ids for that scorer only', async () => {
    const a = await score(config('a.yaml', 0.5));
    const again = await score(config('a-again.yaml', 0.5));
    const changed = await score(config('b.yaml', 0.6));
    expect(Object.keys(a).sort()).toEqual(['similarity', 'tools']);
    for (const rec of Object.values(a)) {
      expect(rec.scorerVersion).toMatch(/^[0-9a-f]{12}$/);
      expect(rec.evaluationId).toBe(evaluationIdFor(String(rec.traceId), String(rec.spanId), String(rec.scorer), String(rec.scorerVersion)));
    }
    expect(again.similarity?.evaluationId).toBe(a.similarity?.evaluationId);
    expect(again.tools?.evaluationId).toBe(a.tools?.evaluationId);
    expect(changed.similarity?.threshold).toBe(0.6);
    expect(changed.similarity?.scorerVersion).not.toBe(a.similarity?.scorerVersion);
    expect(changed.similarity?.evaluationId).not.toBe(a.similarity?.evaluationId);
    expect(changed.tools?.scorerVersion).toBe(a.tools?.scorerVersion);
    expect(changed.tools?.evaluationId).toBe(a.tools?.evaluationId);
  });
});
