/**
 * `type: custom` — a scorer written by the user with `createScorer`, loaded from a JavaScript module. The
 * path is resolved against the config file's directory; `export` names the export (default: the default
 * export). The module may import `tracejudge` without installing it (see self-resolve.ts). Every failure
 * names the config key and the file.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ErrorCodes, TracejudgeError, errorMessage } from '../../errors.js';
import type { ScorerLike } from '../core/types.js';
import { installSelfResolution, type SelfResolution } from './self-resolve.js';

/** Default bound on one custom evaluation (`scorers.<name>.timeoutMs`). */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Options of a `type: custom` entry. */
export const customScorerOptions = z.strictObject({
  /** Path of a JavaScript module (`.mjs`, `.js`, `.cjs`), relative to the config file. */
  module: z.string().min(1),
  /** Named export holding the scorer; default: the default export. */
  export: z.string().min(1).optional(),
  /** `code` or `judge`: how it is sampled and queued; default: `judge` when it has a judge (prompt) step, else `code`. */
  kind: z.enum(['code', 'judge']).optional(),
  /** Longest one evaluation may take; past it the evaluation is an error record of type `timeout`. */
  timeoutMs: z.number().int().positive().max(3_600_000).default(DEFAULT_TIMEOUT_MS),
});


/**
 * A custom scorer module that is missing, fails to load, or exports no scorer. The message is
 * `<key>: <detail> (<file>)`; `key`, `detail` and `file` are also kept apart (e.g. for `FILE: key: detail` lines).
 */
export class ScorerModuleError extends TracejudgeError {
  /** The config key at fault: `scorers.<name>.module` or `scorers.<name>.export`. */
  readonly key: string;
  /** Absolute path of the module. */
  readonly file: string;
  /** What is wrong, without the key and the file. */
  readonly detail: string;
  constructor(key: string, file: string, detail: string, cause?: unknown) {
    super(ErrorCodes.SCORER_MODULE, `${key}: ${detail} (${file})`, cause === undefined ? undefined : { cause });
    this.name = 'ScorerModuleError';
    this.key = key;
    this.file = file;
    this.detail = detail;
  }
}

/** True for anything with the scorer surface (works across copies of the package, unlike `instanceof`). */
function isScorerLike(value: unknown): value is ScorerLike {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.run === 'function' && typeof v.getSteps === 'function';
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'function') return 'a function (call createScorer(...) and export the result, not the factory)';
  if (typeof v === 'object') return `an object with keys ${Object.keys(v).slice(0, 5).join(', ') || '(none)'}`;
  return `a ${typeof v}`;
}

/** True for a promise (or any thenable): a module may export a promise of its scorer. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** Why the module could not be read as a file, or undefined when it can be. */
function fileProblem(file: string, given: string): string | undefined {
  try {
    return statSync(file).isFile() ? undefined : `module is not a file: ${given}`;
  } catch {
    return `module not found: ${given}`;
  }
}

/** The load error, with what to do when the module could not resolve the running package itself. */
function loadFailure(err: unknown, own: SelfResolution): string {
  const message = `module failed to load: ${errorMessage(err)}`;
  const code = (err as { code?: unknown } | null)?.code;
  const ownSpecifier = new RegExp(`['"]${own.name}(/[^'"]*)?['"]`);
  if ((code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') || !ownSpecifier.test(errorMessage(err))) return message;
  if (own.mode === 'import-only' && code === 'MODULE_NOT_FOUND') {
    return `${message}; on Node ${process.versions.node} a CommonJS module cannot require('${own.name}') unless it is installed beside the module (Node 22.15+ and 23.5+ can): write the module as an ES module (.mjs, import { createScorer } from '${own.name}') or export a promise (module.exports = import('${own.name}').then(({ createScorer }) => createScorer(...)))`;
  }
  if (own.mode === 'none') {
    const why = own.packageJson === undefined ? 'it has no package.json of its own' : `Node ${process.versions.node} has no module customization hooks; Node 20.6+ has`;
    return `${message}; this tracejudge cannot serve '${own.name}' to modules (${why}), so install it beside the module`;
  }
  return message;
}

/**
 * Load the scorer of a `type: custom` entry. Installs the self-resolution hooks first, so the module can
 * import `tracejudge` and `tracejudge/testing` from the running package. The export may be a scorer or a
 * promise of one.
 *
 * @example
 * ```ts
 * // scorers: { mine: { type: custom, module: ./scorers/mine.js } }
 * const scorer = await loadModuleScorer('mine', { module: './scorers/mine.js' }, dirname(configPath));
 * ```
 */
export async function loadModuleScorer(
  name: string,
  options: z.input<typeof customScorerOptions>,
  configDir: string = process.cwd(),
  selfResolution: () => SelfResolution = installSelfResolution,
): Promise<ScorerLike> {
  const key = `scorers.${name}.module`;
  const file = isAbsolute(options.module) ? options.module : resolve(configDir, options.module);
  const problem = fileProblem(file, options.module);
  if (problem !== undefined) throw new ScorerModuleError(key, file, problem);
  const own = selfResolution();
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ScorerModuleError(key, file, loadFailure(err, own), err);
  }
  const exportName = options.export ?? 'default';
  const exportKey = options.export === undefined ? key : `scorers.${name}.export`;
  if (!(exportName in mod)) {
    const names = Object.keys(mod).filter((k) => k !== '__esModule' && k !== 'module.exports');
    throw new ScorerModuleError(exportKey, file, `module has no export "${exportName}" (exports: ${names.join(', ') || 'none'})`);
  }
  let value = mod[exportName];
  if (isThenable(value)) {
    try {
      value = await value;
    } catch (err) {
      throw new ScorerModuleError(exportKey, file, `the promise exported as "${exportName}" was rejected: ${errorMessage(err)}`, err);
    }
  }
  if (!isScorerLike(value)) {
    throw new ScorerModuleError(exportKey, file, `export "${exportName}" is not a scorer made with createScorer: it is ${describeValue(value)}`);
  }
  return withTimeout(value, name, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** A custom evaluation that ran past its `timeoutMs`. */
export class ScorerTimeoutError extends Error {
  readonly code = 'timeout';
  constructor(name: string, timeoutMs: number) {
    super(`scorer ${name} did not finish within ${timeoutMs} ms (scorers.${name}.timeoutMs)`);
    this.name = 'ScorerTimeoutError';
  }
}

/**
 * `scorer` with every `run` bounded by `timeoutMs`: user code that never returns becomes an error record
 * instead of holding a judge-queue slot (and the shutdown) forever. Other members are the scorer's own.
 */
function withTimeout(scorer: ScorerLike, name: string, timeoutMs: number): ScorerLike {
  const run: ScorerLike['run'] = (input, options) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new ScorerTimeoutError(name, timeoutMs)), timeoutMs);
      timer.unref();
      scorer.run(input, options).then(
        (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  return new Proxy(scorer, {
    get(target, prop) {
      if (prop === 'run') return run;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
