/**
 * Skipped runs said everywhere (issue 31, part 4), through the real CLI: `score` on a trace recorded
 * without content ends with the skipped runs and evaluations by reason and how to turn content capture on
 * for its convention; `serve` writes a warn line saying the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentCaptureHint } from '../../src/extract/empty-runs.js';
import { cliEnv, records, ROOT, runCli, startCli } from './run-cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
const CONTENT = /message|prompt|response\.text|response\.object|input\.value|output\.value|content|completion|result|args/i;

interface OtlpJson {
  resourceSpans: { scopeSpans: { spans: { attributes?: { key: string }[] }[] }[] }[];
}

let dir: string;
let noContent: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tj-skipped-'));
  // The AI SDK fixture as the app sends it with recordInputs / recordOutputs off: no attribute carries content.
  const j = JSON.parse(readFileSync(FIXTURE, 'utf8')) as OtlpJson;
  for (const rs of j.resourceSpans) for (const ss of rs.scopeSpans) for (const sp of ss.spans) sp.attributes = (sp.attributes ?? []).filter((a) => !CONTENT.test(a.key));
  noContent = join(dir, 'aisdk-no-content.json');
  writeFileSync(noContent, JSON.stringify(j));
  writeFileSync(
    join(dir, 'serve.yaml'),
    ['sources:', '  otlp:', '    http: { port: 0 }', '    grpc: { enabled: false }', 'assembly: { decisionWaitMs: 100 }', 'emit: { prometheus: { port: 0 } }', 'telemetry: { shutdownTimeoutMs: 5000 }', ''].join('\n'),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('skipped runs in score and serve', () => {
  it('score --format table: no rows, and a summary with the skipped runs by reason and the fix for the AI SDK', async () => {
    const r = await runCli(['score', '--all', '--format', 'table', noContent], { env: cliEnv('warn') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1); // the header only
    expect(r.stderr).toContain('summary: 1 run(s), 0 evaluation(s), 3 skipped');
    expect(r.stderr).toContain('skipped: 1 run(s), 3 evaluation(s) not applicable: no-input 1 run(s) / 1 evaluation(s), no-output 1 run(s) / 2 evaluation(s)');
    expect(r.stderr).toContain(`aisdk: ${contentCaptureHint('aisdk')}`);
  });

  it('score (JSON lines) of a run with content says nothing about skipped runs', async () => {
    const r = await runCli(['score', '--all', FIXTURE], { env: cliEnv('warn') });
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout)).toHaveLength(3);
    expect(r.stderr).toContain('summary: 1 run(s), 3 evaluation(s)');
    expect(r.stderr).not.toContain('skipped');
  });

  it('serve: a warn line with the skipped runs, why, and how to turn content capture on', async () => {
    const proc = startCli(['serve', '-c', join(dir, 'serve.yaml')], cliEnv('info'));
    let stderr = '';
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    proc.stdout?.resume();
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    try {
      const logs = (): Record<string, unknown>[] =>
        stderr
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      const waitFor = async (what: string, pick: () => Record<string, unknown> | undefined): Promise<Record<string, unknown>> => {
        for (let i = 0; i < 400; i++) {
          const v = pick();
          if (v) return v;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`timed out waiting for ${what}: ${stderr}`);
      };
      const started = await waitFor('startup', () => logs().find((l) => l.msg === 'tracejudge started'));
      const { http } = started.ports as { http: number };
      const res = await fetch(`http://127.0.0.1:${http}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: readFileSync(noContent) });
      expect(res.status).toBe(200);
      const warn = await waitFor('the skipped-runs warn line', () => logs().find((l) => String(l.msg).startsWith('runs skipped')));
      expect(warn).toMatchObject({ level: 40, runs: 1, evaluations: 3, reasons: { 'no-output': 1, 'no-input': 1 }, conventions: ['aisdk'], fix: [`aisdk: ${contentCaptureHint('aisdk')}`] });
      expect(String(warn.msg)).toContain('runs skipped: 1 run(s)');
      expect(String(warn.msg)).toContain(contentCaptureHint('aisdk'));
    } finally {
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
