/**
 * Lets a custom scorer module (`type: custom`) import `tracejudge` and `tracejudge/*` without tracejudge
 * being installed beside it. When the module's own resolution cannot find the package, Node's module
 * customization hooks resolve the specifier as if the running tracejudge package imported itself, through
 * its package.json `exports`. A tracejudge that the module can resolve itself (installed beside it) wins.
 *
 * Two hook APIs exist, and the better one available is used:
 * - `module.registerHooks` (Node >= 22.15 / 23.5): synchronous, in-thread, and applies to `import` and
 *   to `require`, so CommonJS modules may `require('tracejudge')`.
 * - `module.register` (Node >= 20.6): asynchronous hooks on a loader thread. On Node 20 these see
 *   `import` and `import()` only: the `require` of a CommonJS module is resolved by the CommonJS loader
 *   before any hook is asked (even for CommonJS loaded through the ES module loader), and no supported API
 *   changes that on Node 20. A CommonJS module can still reach the package with `import('tracejudge')`.
 *
 * Nothing happens on import of this file: the component that loads custom modules calls
 * `installSelfResolution()` first.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ASYNC_HOOKS_SOURCE, type AsyncHooksData } from './self-resolve-hooks.js';

/** How bare `tracejudge` specifiers of custom modules are served in this process. */
export type SelfResolutionMode =
  /** `module.registerHooks`: `import` and `require`. */
  | 'import-and-require'
  /** `module.register`: `import` and `import()` only (Node 20). */
  | 'import-only'
  /** No customization hooks (Node < 20.6), or no package.json of tracejudge (a bundled copy): only a tracejudge installed beside the module is found. */
  | 'none';

export interface SelfResolution {
  mode: SelfResolutionMode;
  /** The package name served (`tracejudge`). */
  name: string;
  /** The package.json whose `exports` the specifiers resolve through; absent when none was found. */
  packageJson?: string;
}

/** The subset of the hook API of `module.registerHooks` used here (absent from @types/node 20). */
interface SyncResolveContext {
  conditions: readonly string[];
  parentURL?: string | undefined;
  importAttributes?: Record<string, string>;
}
interface SyncResolveResult {
  url: string;
  format?: string | null | undefined;
  shortCircuit?: boolean;
}
type SyncNextResolve = (specifier: string, context?: Partial<SyncResolveContext>) => SyncResolveResult;
type RegisterHooks = (hooks: { resolve: (specifier: string, context: SyncResolveContext, next: SyncNextResolve) => SyncResolveResult }) => unknown;

/**
 * The package.json of the running tracejudge: the nearest one above this file named `tracejudge` (the
 * installed package, or the repository root when running from source or from `dist/`).
 */
export function ownPackageJson(from: string = fileURLToPath(import.meta.url)): { path: string; name: string } {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const name = (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown }).name;
      if (name === 'tracejudge') return { path: candidate, name };
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json named tracejudge above ${from}`);
    dir = parent;
  }
}

/**
 * Install the resolution hooks. Node's module hooks are process-wide and cannot be removed, so each call adds
 * one more (equivalent) layer: the owner calls it once and keeps the result; the scorer registry does so for
 * the custom modules it loads (src/scorers/custom/register.ts).
 *
 * @example
 * ```ts
 * installSelfResolution().mode; // 'import-only' on Node 20
 * await import(pathToFileURL('/etc/tracejudge/scorers/mine.mjs').href); // may import 'tracejudge'
 * ```
 */
export function installSelfResolution(): SelfResolution {
  let own: { path: string; name: string };
  try {
    own = ownPackageJson();
  } catch {
    return { mode: 'none', name: 'tracejudge' };
  }
  const packageJsonURL = pathToFileURL(own.path).href;
  const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks;
  let mode: SelfResolutionMode = 'none';
  if (typeof registerHooks === 'function') {
    registerHooks({ resolve: syncResolver(own.name, own.path, packageJsonURL) });
    mode = 'import-and-require';
  } else if (typeof nodeModule.register === 'function') {
    const data: AsyncHooksData = { name: own.name, packageJsonURL };
    nodeModule.register(`data:text/javascript,${encodeURIComponent(ASYNC_HOOKS_SOURCE)}`, { data });
    mode = 'import-only';
  }
  return { mode, name: own.name, packageJson: own.path };
}

const NOT_FOUND: ReadonlySet<unknown> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

function syncResolver(name: string, packageJsonPath: string, packageJsonURL: string) {
  const selfRequire = nodeModule.createRequire(packageJsonPath);
  return (specifier: string, context: SyncResolveContext, next: SyncNextResolve): SyncResolveResult => {
    if (specifier !== name && !specifier.startsWith(`${name}/`)) return next(specifier, context);
    try {
      return next(specifier, context);
    } catch (err) {
      if (!NOT_FOUND.has((err as { code?: unknown } | null)?.code)) throw err;
      // The CommonJS resolver reads the requiring module, not `parentURL`: resolve from the package itself.
      if (context.conditions.includes('require')) return { url: pathToFileURL(selfRequire.resolve(specifier)).href, shortCircuit: true };
      return next(specifier, { ...context, parentURL: packageJsonURL });
    }
  };
}
