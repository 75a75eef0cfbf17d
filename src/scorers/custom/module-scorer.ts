/**
 * `type: custom` — a scorer written by the user with `createScorer`, loaded from a JavaScript module. The
 * path is resolved against the config file's directory; `export` names the export (default: the default
 * export). Every failure names the config key and the file.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ErrorCodes, TracejudgeError, errorMessage } from '../../errors.js';
import type { ScorerLike } from '../core/types.js';

/** Default bound on one custom evaluation (`scorers.<name>.timeoutMs`). */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Options of a `type: custom` entry. */
export const customScorerOptions = z.strictObject({
  /** Path of an ES module (`.js` / `.mjs`), relative to the config file. */
  module: z.string().min(1),
  /** Named export holding the scorer; default: the default export. */
  export: z.string().min(1).optional(),
  /** Longest one evaluation may take; past it the evaluation is an error record of type `timeout`. */
  timeoutMs: z.number().int().positive().max(3_600_000).default(DEFAULT_TIMEOUT_MS),
});


/** A custom scorer module that is missing, fails to load, or exports no scorer. */
export class ScorerModuleError extends TracejudgeError {
  readonly key: string;
  readonly file: string;
  constructor(key: string, file: string, message: string, cause?: unknown) {
    super(ErrorCodes.SCORER_MODULE, `${key}: ${message} (${file})`, cause === undefined ? undefined : { cause });
    this.name = 'ScorerModuleError';
    this.key = key;
    this.file = file;
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

/**
 * Load the scorer of a `type: custom` entry.
 *
 * @example
 * ```ts
 * // scorers: { mine: { type: custom, module: ./scorers/mine.js } }
 * const scorer = await loadModuleScorer('mine', { module: './scorers/mine.js' }, dirname(configPath));
 * ```
 */
export async function loadModuleScorer(name: string, options: z.input<typeof customScorerOptions>, configDir: string = process.cwd()): Promise<ScorerLike> {
  const key = `scorers.${name}.module`;
  const file = isAbsolute(options.module) ? options.module : resolve(configDir, options.module);
  if (!existsSync(file)) throw new ScorerModuleError(key, file, `module not found: ${options.module}`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ScorerModuleError(key, file, `module failed to load: ${errorMessage(err)}`, err);
  }
  const exportName = options.export ?? 'default';
  const exportKey = options.export === undefined ? key : `scorers.${name}.export`;
  if (!(exportName in mod)) {
    const names = Object.keys(mod).filter((k) => k !== '__esModule');
    throw new ScorerModuleError(exportKey, file, `module has no export "${exportName}" (exports: ${names.join(', ') || 'none'})`);
  }
  const value = mod[exportName];
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
