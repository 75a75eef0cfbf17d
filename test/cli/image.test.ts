/**
 * The container image without a Docker engine: scripts/image/verify.sh replays the Dockerfile's runtime stage in
 * a clean temporary directory (production dependencies only, the entrypoint run as a non-root user, /readyz and
 * the HEALTHCHECK command, a clean SIGTERM stop), and the Dockerfile and docker-compose.yml have the shape the
 * README promises (multi-stage, exec form, non-root, OCI labels, compose builds the image instead of installing
 * at start). What cannot be checked here — the image build itself and the base image pull — is said in the README.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './run-cli.js';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
/** Instructions with continuation lines joined and comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
const stages = dockerfile.split(/^FROM /m).slice(1);
const runtime = stages.find((s) => /^\S+ AS runtime\b/.test(s)) ?? '';

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('Dockerfile', () => {
  it('has a build stage (npm ci, then the TypeScript build) and a runtime stage with production dependencies only', () => {
    expect(stages.map((s) => /^\S+ AS (\S+)/.exec(s)?.[1])).toEqual(['build', 'runtime']);
    const build = stages[0] ?? '';
    expect(build).toMatch(/^RUN npm ci\b/m);
    expect(build).toMatch(/^RUN npm run build$/m);
    expect(runtime).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).not.toMatch(/^COPY (src|tsconfig)/m);
  });

  it('runs as a non-root user, node in exec form as PID 1, with a curl-free HEALTHCHECK on /readyz and OCI labels', () => {
    expect(runtime).toMatch(/^USER node$/m);
    const entry = instructions.find((l) => l.startsWith('ENTRYPOINT '));
    expect(JSON.parse(entry?.slice('ENTRYPOINT '.length) ?? 'null')).toEqual(['node', 'dist/cli/main.js']);
    expect(JSON.parse(instructions.find((l) => l.startsWith('CMD '))?.slice(4) ?? 'null')).toEqual(['serve']);
    const health = instructions.find((l) => l.startsWith('HEALTHCHECK ')) ?? '';
    expect(health).toContain('/readyz');
    expect(health).toMatch(/CMD \["node", "-e", /);
    expect(health).not.toContain('curl');
    for (const label of ['title', 'description', 'licenses', 'version', 'revision', 'created', 'source']) {
      expect(runtime, label).toContain(`org.opencontainers.image.${label}=`);
    }
    expect(runtime).toContain('org.opencontainers.image.licenses="Apache-2.0"');
  });

  it('.dockerignore keeps node_modules, dist, tests and local files out of the build context', () => {
    const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('*');
    expect(lines).not.toContain('!node_modules/');
    expect(lines).not.toContain('!dist/');
    expect(lines).not.toContain('!test/');
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Record<string, unknown>> };
  const tj = compose.services.tracejudge ?? {};

  it('builds the image and runs it: no shell, no install at start, no source mounted', () => {
    expect(tj.build).toMatchObject({ context: '.' });
    expect(Array.isArray(tj.command)).toBe(true);
    expect((tj.command as string[])[0]).toBe('serve');
    expect(JSON.stringify(tj)).not.toMatch(/npm ci|sh -c|tsx/);
    expect((tj.volumes as string[]).some((v) => v.startsWith('./:'))).toBe(false);
  });
});

describe.skipIf(!existsSync(join(ROOT, 'dist/cli/main.js')))('scripts/image/verify.sh (needs npm run build)', () => {
  it('replays the runtime stage: --version, production dependencies only, a non-root start, /readyz, HEALTHCHECK, a clean SIGTERM', async () => {
    const r = await run('bash', ['scripts/image/verify.sh'], 240_000);
    expect(r.out).toContain('verify: PASS');
    expect(r.code, r.out).toBe(0);
    for (const step of ['--version =', 'production dependencies only', 'running as uid', 'HEALTHCHECK command exits 0', 'exit 0, ports closed']) {
      expect(r.out, step).toContain(step);
    }
  }, 250_000);
});
