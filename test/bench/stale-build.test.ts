/**
 * `bench/run.ts --no-build` measures `dist/` as it is; it warns when a source file is newer than the whole
 * build and stops when there is no build (`bench/lib/stale-build.ts`), so that an A/B run of a changed
 * `src/` does not compare the old build with itself.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleBuild } from '../../bench/lib/stale-build.js';

describe('staleBuild', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });

  function tree(files: Record<string, number>): string {
    const root = mkdtempSync(join(tmpdir(), 'tracejudge-stale-'));
    roots.push(root);
    for (const [path, seconds] of Object.entries(files)) {
      const full = join(root, path);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, '');
      utimesSync(full, seconds, seconds);
    }
    return root;
  }

  it('names the newest source file when it is newer than every built file', () => {
    const root = tree({ 'src/a/old.ts': 1_000, 'src/b/new.ts': 3_000, 'dist/a/old.js': 2_000, 'dist/b/new.js': 2_500 });
    expect(staleBuild(root)).toEqual({ source: join('src', 'b', 'new.ts'), build: 'older' });
  });

  it('says nothing when the build is at least as new as every source file', () => {
    expect(staleBuild(tree({ 'src/a/x.ts': 1_000, 'src/b/y.ts': 2_000, 'dist/a/x.js': 2_000 }))).toBeUndefined();
  });

  it('says the build is missing when dist/ has no JavaScript, and nothing when there is no source', () => {
    expect(staleBuild(tree({ 'src/x.ts': 1_000 }))).toEqual({ source: join('src', 'x.ts'), build: 'missing' });
    expect(staleBuild(tree({ 'src/x.ts': 1_000, 'dist/x.js.map': 2_000 }))).toEqual({ source: join('src', 'x.ts'), build: 'missing' });
    expect(staleBuild(tree({ 'dist/x.js': 1_000 }))).toBeUndefined();
  });

  it('skips a file it cannot read (a dangling link) instead of failing the bench', () => {
    const root = tree({ 'src/x.ts': 1_000, 'dist/x.js': 2_000 });
    symlinkSync(join(root, 'nowhere.ts'), join(root, 'src', 'gone.ts'));
    expect(staleBuild(root)).toBeUndefined();
  });

  it('ignores files of other kinds (a newer README in src/ or a map file in dist/)', () => {
    const root = tree({ 'src/x.ts': 1_000, 'src/notes.md': 5_000, 'dist/x.js': 2_000, 'dist/x.js.map': 500 });
    expect(staleBuild(root)).toBeUndefined();
    expect(staleBuild(tree({ 'src/x.ts': 3_000, 'dist/x.js': 2_000, 'dist/x.js.map': 4_000 }))).toEqual({ source: join('src', 'x.ts'), build: 'older' });
  });
});
