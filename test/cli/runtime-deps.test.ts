/**
 * `tracejudge demo` (and the rest of the CLI, the live page included) must work from an installed package,
 * where devDependencies are absent. This walks the static import graph of src/cli/main.ts (value imports
 * only: `import type` is erased by tsc) and checks that every package it reaches is a runtime dependency,
 * and that the live page's files are where src/live/assets.ts reads them. It checks the sources; the README
 * section "First run" and the issue report say how the installed package itself was tried.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_ASSETS_DIR } from '../../src/live/assets.js';
import { ROOT } from './run-cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** Value imports of a TypeScript file: `import … from`, `export … from`, `import '…'` and `import('…')`, minus type-only ones. */
function importsOf(source: string): string[] {
  const out: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    if (m[2]) continue;
    const clause = m[3] ?? '';
    // `import { type A, type B } from` is type-only as well.
    if (/^\{[\s\S]*\}$/.test(clause.trim()) && clause.replace(/[{}\s]/g, '').split(',').filter((s) => s !== '').every((s) => s.startsWith('type'))) continue;
    out.push(m[4] as string);
  }
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

/**
 * Matches of the patterns above that are not imports of the running CLI: the completeness worker's loader
 * for `.ts` sources (a string evaluated only when running from the sources under tsx, never from dist).
 * Specifiers built at run time (`${…}` in a template) are skipped too.
 */
const NOT_IMPORTS = new Set(['tsx/esm/api']);

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/** Every bare specifier reachable from `entry`, with the first file that imports it. */
function reachablePackages(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        if (existsSync(target)) queue.push(target);
        else if (!spec.endsWith('.json')) throw new Error(`${file}: cannot resolve ${spec}`);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec) && !NOT_IMPORTS.has(spec) && !spec.includes('${')) {
        if (!packages.has(spec)) packages.set(spec, file);
      }
    }
  }
  return packages;
}

describe('the CLI at run time', () => {
  it('imports only runtime dependencies (no devDependency, as in an installed package)', () => {
    const packages = reachablePackages(join(ROOT, 'src/cli/main.ts'));
    // The walk really reaches the demo and the live page.
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['ai', 'ai/test', 'log-update', 'cli-progress', '@opentelemetry/context-async-hooks', '@opentelemetry/exporter-trace-otlp-proto']));
    const wrong = [...packages].filter(([spec]) => !(packageOf(spec) in pkg.dependencies)).map(([spec, file]) => `${spec} (imported by ${file.slice(ROOT.length)})`);
    expect(wrong).toEqual([]);
  });

  it('finds `ai/test` (the scripted mock model) in the runtime dependency `ai`', async () => {
    const mod = (await import('ai/test')) as { MockLanguageModelV3?: unknown };
    expect(typeof mod.MockLanguageModelV3).toBe('function');
    const ai = JSON.parse(readFileSync(join(ROOT, 'node_modules/ai/package.json'), 'utf8')) as { exports: Record<string, unknown>; dependencies: Record<string, string> };
    expect(Object.keys(ai.exports)).toContain('./test');
    // What ai/test itself imports is installed with `ai` (its own dependencies).
    expect(Object.keys(ai.dependencies)).toEqual(expect.arrayContaining(['@ai-sdk/provider', '@ai-sdk/provider-utils']));
  });

  it('has the live page files where the service reads them (assets/live beside src/ and dist/)', () => {
    expect(LIVE_ASSETS_DIR).toBe(join(ROOT, 'assets/live/'));
    for (const f of ['index.html', 'live.css', 'live.js']) expect(existsSync(join(LIVE_ASSETS_DIR, f)), f).toBe(true);
  });

  it('ships the live page files, the demo and the live modules in the npm package', () => {
    // `npm pack --dry-run` lists what `npm publish` would ship (package.json "files"), without building.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] });
    const files = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path));
    const missing = ['assets/live/index.html', 'assets/live/live.css', 'assets/live/live.js', 'dist/cli/commands/demo.js', 'dist/demo/agents.js', 'dist/live/ring.js'].filter((f) => !files.has(f));
    expect(missing, 'add "assets" to package.json "files" (and run npm run build for dist/)').toEqual([]);
  }, 70_000);
});
