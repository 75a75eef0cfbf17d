/** Whether `dist/` is older than `src/`, for `bench/run.ts --no-build` (which measures `dist/` as it is). */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

function newest(dir: string, suffix: string): { path: string; mtimeMs: number } | undefined {
  let best: { path: string; mtimeMs: number } | undefined;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    const found = e.isDirectory() ? newest(path, suffix) : e.name.endsWith(suffix) ? { path, mtimeMs: statSync(path).mtimeMs } : undefined;
    if (found && (!best || found.mtimeMs > best.mtimeMs)) best = found;
  }
  return best;
}

/**
 * The newest source file under `root/src` (relative to `root`) when it is newer than every file of
 * `root/dist`, or when there is no build at all; undefined when the build is at least as new.
 */
export function staleBuild(root: string): string | undefined {
  const src = newest(join(root, 'src'), '.ts');
  if (!src) return undefined;
  const dist = newest(join(root, 'dist'), '.js');
  if (dist && dist.mtimeMs >= src.mtimeMs) return undefined;
  return relative(root, src.path);
}
