/**
 * The package as a dependency, from both module systems: a consumer folder in the OS temp dir whose
 * node_modules/tracejudge is a symlink to the repository (the built package: "exports" point at dist/,
 * built by `npm run build`, which `pretest` runs). A `.cjs` consumer calls `require('tracejudge')`, which
 * reaches the ES module entry point through the `default` condition (require(esm), Node >= 20.19); an
 * `.mjs` consumer does the same with `import`. Both build a scorer with createScorer and run a prebuilt one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, dirWithPackage, removeDir, run, writeFiles } from './temp-project.js';

/** Same input as the public API test: docs/scorers.md gives content similarity 0.8 for it. */
const RUN = `{
  runId: 'r1',
  input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
  output: [{ role: 'assistant', content: 'The quick brown cat' }],
}`;

/** The consumer body shared by both module systems; `tj` and `testing` are the two entry points. */
const BODY = `
const words = (run) => run.output[0].content.split(' ').length;
const custom = tj.createScorer({ id: 'words', description: 'an eighth of a point per word' }).generateScore(({ run }) => words(run) / 8);
const similarity = tj.createContentSimilarityScorer();
const run = ${RUN};
Promise.all([custom.run(run), similarity.run(run)]).then(([c, s]) => {
  console.log(JSON.stringify({
    custom: { id: custom.id, score: c.score, runId: c.runId },
    similarity: s.score,
    testing: typeof testing.startStubJudge,
    name: pkgName,
  }));
});
`;

const CJS = `'use strict';
const tj = require('tracejudge');
const testing = require('tracejudge/testing');
const pkgName = require('tracejudge/package.json').name;
${BODY}
// One instance for both module systems: require(esm) returns the namespace that import() gives.
import('tracejudge').then((ns) => console.log(JSON.stringify({ sameNamespace: ns === tj })));
`;

const ESM = `import * as tj from 'tracejudge';
import * as testing from 'tracejudge/testing';
import { createRequire } from 'node:module';
const pkgName = createRequire(import.meta.url)('tracejudge/package.json').name;
${BODY}
`;

const EXPECTED = { custom: { id: 'words', score: 0.5, runId: 'r1' }, similarity: 0.8, testing: 'function', name: 'tracejudge' };

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** require(esm) without a flag: Node 20.19+ (and 22.12+). */
const REQUIRE_ESM = process.features.require_module === true || (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22;

let dir: string;
beforeAll(() => {
  dir = dirWithPackage('tj-consumer-');
  writeFiles(dir, {
    'consumer.cjs': CJS,
    'consumer.mjs': ESM,
    'private.cjs': "require('tracejudge/dist/index.js');\n",
  });
});
afterAll(() => removeDir(dir));

const lines = (stdout: string): unknown[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);

describe('tracejudge as a dependency', { timeout: 60_000 }, () => {
  it.skipIf(!REQUIRE_ESM)("a CommonJS consumer: require('tracejudge') and require('tracejudge/testing') work, with no ExperimentalWarning", async () => {
    const r = await run(process.execPath, ['consumer.cjs'], { cwd: dir, env: childEnv() });
    expect(r.stderr).not.toContain('ExperimentalWarning');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual(expect.arrayContaining([EXPECTED, { sameNamespace: true }]));
    expect(lines(r.stdout)).toHaveLength(2);
  });

  it('an ES module consumer: import from tracejudge and tracejudge/testing', async () => {
    const r = await run(process.execPath, ['consumer.mjs'], { cwd: dir, env: childEnv() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([EXPECTED]);
  });

  it('the symlinked package is resolved through its "exports": an unexported path is refused', async () => {
    const r = await run(process.execPath, ['private.cjs'], { cwd: dir, env: childEnv() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
