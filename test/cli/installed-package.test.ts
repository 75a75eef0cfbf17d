/**
 * The npm package as a user installs it (issue 17: `npx tracejudge demo` works from an installed package): the
 * tarball `npm pack` makes from this tree (package.json "files", the compiled dist/ that `npm test` builds
 * first) is installed with `npm install` into a fresh folder outside the repository, with its production
 * dependencies only, and its `tracejudge` bin runs the demo and prints its version.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_AGENTS } from '../../src/demo/agents.js';
import { isolatedDir, removeDir, ROOT } from '../api/temp-project.js';
import { cliEnv } from './run-cli.js';

const run = promisify(execFile);
const NPM_ENV = { ...cliEnv('warn'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let dir: string | undefined;
let bin: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run npm run build (npm test does it first)');
  dir = isolatedDir('tj-installed-');
  // --ignore-scripts: dist/ is already built; `prepare` would build it again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, env: NPM_ENV, maxBuffer: 16 << 20 });
  const tarball = join(dir, stdout.trim().split('\n').pop() ?? '');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tj-user-app', version: '1.0.0', private: true }));
  await run('npm', ['install', '--prefer-offline', '--omit=dev', '--no-package-lock', tarball], { cwd: dir, env: NPM_ENV, maxBuffer: 16 << 20, timeout: 240_000 });
  bin = join(dir, 'node_modules', '.bin', 'tracejudge');
}, 300_000);

afterAll(() => removeDir(dir));

describe('the installed npm package', () => {
  it('has its bin, the live page assets and no repository files beside them', () => {
    expect(existsSync(bin)).toBe(true);
    const pkg = join(dir ?? '', 'node_modules', 'tracejudge');
    for (const f of ['dist/cli/main.js', 'dist/demo/agents.js', 'assets/live/index.html', 'README.md']) expect(existsSync(join(pkg, f)), f).toBe(true);
    for (const f of ['src', 'test', 'bench', '.ci']) expect(existsSync(join(pkg, f)), f).toBe(false);
  });

  it('tracejudge --version prints the package version', async () => {
    const { stdout } = await run(bin, ['--version'], { cwd: dir, env: cliEnv('warn') });
    expect(stdout.trim()).toContain(version);
  });

  it('npx tracejudge demo --duration runs the sample agents and exits 0 with a final summary', async () => {
    const { stdout } = await run('npx', ['--no-install', 'tracejudge', 'demo', '--duration', '5'], { cwd: dir, env: cliEnv('warn'), timeout: 90_000, maxBuffer: 16 << 20 });
    const final = stdout.slice(stdout.lastIndexOf('final summary'));
    expect(final.length).toBeGreaterThan(0);
    for (const a of SAMPLE_AGENTS) expect(final).toMatch(new RegExp(`^${a.name}\\s+[1-9]\\d*\\s`, 'm'));
  }, 120_000);
});
