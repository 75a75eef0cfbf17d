/** Whether `dist/` is older than `src/`, for `bench/run.ts --no-build` (which measures `dist/` as it is). */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

interface Newest {
  path: string;
  mtimeMs: number;
}

/** The newest file under `dir` whose name ends with `suffix`; files that vanish while being read are skipped. */
function newest(dir: string, suffix: string): Newest | undefined {
  let best: Newest | undefined;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    let found: Newest | undefined;
    if (e.isDirectory()) found = newest(path, suffix);
    else if (e.name.endsWith(suffix)) {
      try {
        found = { path, mtimeMs: statSync(path).mtimeMs };
      } catch {
        found = undefined;
      }
    }
    if (found && (!best || found.mtimeMs > best.mtimeMs)) best = found;
  }
  return best;
}

export interface StaleBuild {
  /** The newest source file under `root/src`, relative to `root`. */
  source: string;
  /** `missing`: `root/dist` has no JavaScript at all; `older`: every file of it is older than `source`. */
  build: 'missing' | 'older';
}

/** Why `root/dist` does not reflect `root/src`, or undefined when it is at least as new (or there is no source). */
export function staleBuild(root: string): StaleBuild | undefined {
  const src = newest(join(root, 'src'), '.ts');
  if (!src) return undefined;
  const dist = newest(join(root, 'dist'), '.js');
  if (dist && dist.mtimeMs >= src.mtimeMs) return undefined;
  return { source: relative(root, src.path), build: dist ? 'older' : 'missing' };
}
