/**
 * Temporary folders outside the repository for the packaging tests: a folder with no node_modules in it or
 * above it (so nothing there can resolve `tracejudge` by itself), and folders where
 * node_modules/tracejudge is a symlink to the repository root (what an installed package looks like to
 * Node and to TypeScript; the repository's own node_modules then provide the dependencies).
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every node_modules directory in `dir` or one of its ancestors. */
export function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) found.push(join(d, 'node_modules'));
    if (dirname(d) === d) return found;
  }
}

/** A fresh folder under the OS temp dir; throws when a node_modules sits in it or above it. */
export function isolatedDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const above = nodeModulesAbove(dir);
  if (above.length > 0) throw new Error(`${dir} is not isolated: ${above.join(', ')} could resolve packages`);
  return dir;
}

/** A fresh temp folder whose node_modules/tracejudge is a symlink to the repository. */
export function dirWithPackage(prefix: string): string {
  const dir = isolatedDir(prefix);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'tracejudge'), 'dir');
  return dir;
}

/** Write `files` (path relative to `dir` → text), creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Remove a temp folder; the node_modules/tracejudge symlink is unlinked first, never followed. */
export function removeDir(dir: string | undefined): void {
  if (!dir) return;
  const link = join(dir, 'node_modules', 'tracejudge');
  if (lstatOrUndefined(link)?.isSymbolicLink()) unlinkSync(link);
  rmSync(dir, { recursive: true, force: true });
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a program to completion (bounded by `timeoutMs`), never throwing on a non-zero exit. */
export function run(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      // A non-zero exit has a numeric code; anything else (not started, killed at the timeout) is a failure.
      if (err && typeof err.code !== 'number') reject(new Error(`${file} ${args.join(' ')}: ${err.message}`, { cause: err }));
      else resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** The environment of a child that should see no module search path of ours. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['VITEST', 'NODE_PATH', 'NODE_OPTIONS', 'TRACEJUDGE_CONFIG', 'OPENAI_API_KEY']) delete env[key];
  return { ...env, ...extra };
}
