/**
 * The in-process parts of loading a custom module: which package.json the service serves `tracejudge`
 * from, that the hooks are installed once, and the load errors that need no child process (a directory
 * as the module, a promise of a scorer as the export, a rejected promise).
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModuleScorer, ScorerModuleError } from '../../src/scorers/custom/module-scorer.js';
import { installSelfResolution, ownPackageJson } from '../../src/scorers/custom/self-resolve.js';
import { isolatedDir, removeDir, ROOT, writeFiles } from './temp-project.js';

let dir: string;
beforeAll(() => {
  dir = isolatedDir('tj-loading-');
  writeFiles(dir, {
    'scorers/keep.txt': '',
    // A scorer-shaped object (no tracejudge import needed), exported as a promise.
    'later.mjs': "export default Promise.resolve({ id: 'later', getSteps: () => [], run: async (i) => ({ runId: i.runId, score: 0.6 }) });\n",
    'rejected.mjs': "export const scorer = Promise.reject(new Error('no model configured'));\nscorer.catch(() => {});\n",
  });
});
afterAll(() => removeDir(dir));

async function moduleError(p: Promise<unknown>): Promise<ScorerModuleError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ScorerModuleError);
  return err as ScorerModuleError;
}

describe('loading a custom module', () => {
  it('tracejudge is served from the package.json of the running package (the repository root here)', () => {
    expect(ownPackageJson()).toEqual({ path: join(ROOT, 'package.json'), name: 'tracejudge' });
  });

  it('a file with no tracejudge package.json above it is an error naming the file', () => {
    expect(() => ownPackageJson(join(dir, 'later.mjs'))).toThrow(`no package.json named tracejudge above ${join(dir, 'later.mjs')}`);
  });

  it('the hooks are installed with the API this Node has; a loader keeps the installation it is given', async () => {
    const first = installSelfResolution();
    const hasSyncHooks = typeof (nodeModule as { registerHooks?: unknown }).registerHooks === 'function';
    expect(first.mode).toBe(hasSyncHooks ? 'import-and-require' : 'import-only');
    expect(first).toMatchObject({ name: 'tracejudge', packageJson: join(ROOT, 'package.json') });
    // loadModuleScorer asks the owner for the installation (the scorer registry keeps one), not a global.
    let asked = 0;
    const kept = (): typeof first => {
      asked++;
      return first;
    };
    await loadModuleScorer('a', { module: './later.mjs' }, dir, kept);
    await loadModuleScorer('b', { module: './later.mjs' }, dir, kept);
    expect(asked).toBe(2);
  });

  it('a directory as the module is refused before any import, naming key, path and file', async () => {
    const err = await moduleError(loadModuleScorer('d', { module: './scorers' }, dir));
    expect(err.message).toBe(`scorers.d.module: module is not a file: ./scorers (${join(dir, 'scorers')})`);
    expect([err.key, err.detail, err.file]).toEqual(['scorers.d.module', 'module is not a file: ./scorers', join(dir, 'scorers')]);
  });

  it('an export that is a promise of a scorer is awaited', async () => {
    const scorer = await loadModuleScorer('later', { module: './later.mjs' }, dir);
    expect(scorer.id).toBe('later');
    expect(await scorer.run({ runId: 'r9', input: { inputMessages: [], systemMessages: [] }, output: [] })).toMatchObject({ runId: 'r9', score: 0.6 });
  });

  it('a rejected promise names the export key and the rejection', async () => {
    const err = await moduleError(loadModuleScorer('r', { module: './rejected.mjs', export: 'scorer' }, dir));
    expect(err.message).toBe(`scorers.r.export: the promise exported as "scorer" was rejected: no model configured (${join(dir, 'rejected.mjs')})`);
  });
});
