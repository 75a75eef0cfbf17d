/**
 * `tracejudge check-config` through the real CLI: the README's own broken.yaml example prints exactly the lines the
 * README shows, and a file wrong in many ways prints every problem in one run, each as `FILE: key.path: message`,
 * with exit 2 (src/cli/config-check.ts does the checking; test/config/check.test.ts covers each kind in process).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tj-check-config-'));

/** The lines the README shows for `tracejudge check-config -c broken.yaml`. */
function readmeLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```\n\$ tracejudge check-config -c broken\.yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no `$ tracejudge check-config -c broken.yaml` example');
  return block.trimEnd().split('\n');
}

describe('tracejudge check-config', () => {
  it("prints every line of the README's broken.yaml example", async () => {
    const expected = readmeLines();
    expect(expected.length).toBeGreaterThanOrEqual(3);
    // The file the README's lines describe: an out-of-range rate, an unknown key, and a scorer option of the wrong type.
    writeFileSync(
      join(dir, 'broken.yaml'),
      ['sampling:', '  agents:', '    "billing-*": { rate: 1.5 }', 'assembly:', '  bogus: 1', 'scorers:', '  similarity: { type: content-similarity, ignoreCase: "yes" }', ''].join('\n'),
    );
    const r = await runCli(['check-config', '-c', join(dir, 'broken.yaml')]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n').map((l) => l.replace(`${dir}/`, ''));
    expect(lines.sort()).toEqual([...expected].sort());
    expect(r.stdout).toBe('');
  }, 60_000);

  it('reports globs, thresholds, a missing module, no-effect options and other sections together', async () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(
      file,
      [
        'assembly: { decisionWaitMs: soon }',
        'sampling:',
        '  agents:',
        '    "billing-[": { rate: 0.5 }',
        'scorers:',
        '  similarity: { type: content-similarity, threshold: 1.2, reason: always }',
        '  mine: { type: custom, module: ./scorers/mine.mjs }',
        'economics:',
        '  budgets: [{ agent: "eu-{a,b}", perDay: { requests: 10 } }]',
        '',
      ].join('\n'),
    );
    const r = await runCli(['check-config', '-c', file]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    for (const l of lines) expect(l.startsWith(`${file}: `), l).toBe(true);
    const paths = lines.map((l) => l.slice(file.length + 2).split(': ')[0]);
    expect(paths.sort()).toEqual(
      [
        'assembly.decisionWaitMs',
        'sampling.agents["billing-["]',
        'scorers.similarity.threshold',
        'scorers.similarity.reason',
        'scorers.mine.module',
        'economics.budgets[0].agent',
      ].sort(),
    );
    expect(lines).toContain(`${file}: scorers.mine.module: module not found: ./scorers/mine.mjs (${join(dir, 'scorers/mine.mjs')})`);
    expect(lines).toContain(`${file}: scorers.similarity.threshold: must be between 0 and 1: scores of type content-similarity run from 0 to 1`);
  }, 60_000);
});
