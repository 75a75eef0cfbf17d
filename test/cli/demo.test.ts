/**
 * `tracejudge demo` (issue 17) as a user runs it, with no judge key and no services: it ends by itself after
 * `--duration` with exit 0, names the sample agents, shows failing evaluations with their reasons, and tells
 * where to point an app and where the live page is; without `--duration` it runs until SIGINT and then
 * prints the same final summary. Shorter durations than the 20 s keep the suite quick.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_AGENTS } from '../../src/demo/agents.js';
import { startStubJudge } from '../../src/testing/stub-judge/index.js';
import { scriptHallucination } from '../e2e/judge-script.js';
import { cliEnv, runCli, startCli } from './run-cli.js';

/** The final summary's "last failing run" lines that carry a real reason. */
function reasonedFailures(stdout: string): string[] {
  const final = stdout.slice(stdout.lastIndexOf('final summary'));
  return final
    .split('\n')
    .filter((l) => /^ {2}\S+: \S+ \d\.\d\d, trace [0-9a-f]{32}: /.test(l))
    .filter((l) => !l.includes('no reason'));
}

describe('tracejudge demo', () => {
  it('--duration ends by itself with exit 0 and a final summary naming the agents and failing runs with reasons', async () => {
    const started = Date.now();
    const r = await runCli(['demo', '--duration', '8'], { env: cliEnv('warn') });
    const elapsedS = (Date.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(0);
    // About the duration (it counts from the process start), plus the final scoring; bounded.
    expect(elapsedS).toBeGreaterThanOrEqual(7);
    expect(elapsedS).toBeLessThan(45);
    expect(r.stdout).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/Live page: +http:\/\/127\.0\.0\.1:\d+\//);
    expect(r.stdout).toContain('set OPENAI_API_KEY to add the judge scorers');
    const final = r.stdout.slice(r.stdout.lastIndexOf('final summary'));
    // Once stopped, the summary no longer invites an app to send to the closed endpoint (issue 32).
    expect(final).not.toContain('Point your own app here');
    expect(final).toMatch(/Closed with the demo: +OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/127\.0\.0\.1:\d+/);
    expect(final).toMatch(/Live page: +http:\/\/127\.0\.0\.1:\d+\/ \(closed\)/);
    for (const a of SAMPLE_AGENTS) expect(final).toMatch(new RegExp(`^${a.name}\\s+[1-9]\\d*\\s`, 'm'));
    // The contradiction (order-agent) and the answer made up after a tool error (billing-agent) fail with a reason.
    const failures = reasonedFailures(r.stdout);
    expect(failures.length, final).toBeGreaterThanOrEqual(1);
    expect(failures.some((l) => l.startsWith('  order-agent: ') || l.startsWith('  billing-agent: '))).toBe(true);
    expect(r.stdout).not.toContain('"evaluationId"'); // no JSON records in the terminal view
  }, 90_000);

  it('runs until SIGINT, then scores what is buffered and prints the final summary, exit 0', async () => {
    const child = startCli(['demo'], cliEnv('warn'));
    child.stdin?.end();
    let stdout = '';
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const interrupted = new Promise<void>((resolve) => {
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        // Interrupt once a status line says runs were scored.
        if (/demo: \d+ s, \d+ runs sent, [1-9]\d* scored/.test(stdout)) resolve();
      });
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    await interrupted;
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('demo: stopping (SIGINT)');
    expect(stdout).toContain('final summary');
    expect(stdout).toContain('Last failing run per agent');
  }, 90_000);

  it('with OPENAI_API_KEY set, the judge scorers take part (a scripted judge on 127.0.0.1)', async () => {
    const stub = await startStubJudge();
    try {
      // Every claim is a hallucination by the script: hallucination scores 1, which fails (threshold 0.5).
      scriptHallucination(stub, { claims: ['The demo answer is made up.'], verdicts: ['yes'], reason: 'scripted: made up' });
      const dir = mkdtempSync(join(tmpdir(), 'tj-demo-judge-'));
      const config = join(dir, 'demo.yaml');
      writeFileSync(config, 'judge: { maxRetries: 0 }\nsampling: { default: { rate: 1 } }\nscorers:\n  grounding: { type: claim-grounding, threshold: 0.6 }\n  hallucination: { type: hallucination }\n');
      const r = await runCli(['demo', '--duration', '6', '-c', config], { env: cliEnv('warn', { OPENAI_API_KEY: 'sk-demo-test', OPENAI_BASE_URL: stub.baseURL }) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Judge scorers are on');
      const final = r.stdout.slice(r.stdout.lastIndexOf('final summary'));
    // Once stopped, the summary no longer invites an app to send to the closed endpoint (issue 32).
    expect(final).not.toContain('Point your own app here');
    expect(final).toMatch(/Closed with the demo: +OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/127\.0\.0\.1:\d+/);
    expect(final).toMatch(/Live page: +http:\/\/127\.0\.0\.1:\d+\/ \(closed\)/);
      expect(final).toContain('hallucination');
      expect(stub.requests.length).toBeGreaterThan(0);
      expect(final).toMatch(/^ {2}\S+-agent: hallucination 1\.00, trace [0-9a-f]{32}: scripted: made up$/m);
    } finally {
      await stub.close();
    }
  }, 90_000);

  it('names a bad --duration', async () => {
    const r = await runCli(['demo', '--duration', 'soon'], { env: cliEnv('warn') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('demo: --duration must be a number of seconds above 0 (at most a week), got "soon"');
  });
});
