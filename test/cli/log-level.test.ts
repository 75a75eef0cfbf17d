/**
 * The default log level per command, through the real CLI with no TRACEJUDGE_LOG_LEVEL: the offline commands
 * (`extract`, `score`) write their records on stdout and no log line at info on stderr ("tracejudge started" /
 * "tracejudge stopped" are lifecycle lines of a service, not of a one-shot command); `telemetry.logLevel: info`
 * in the config brings them back; `serve` logs its lifecycle at info by default.
 */
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { cliEnv, records, runCli, startCli } from './run-cli.js';

let fx: Fixtures;

beforeAll(async () => {
  fx = await makeFixtures();
});

/** The CLI's environment with no log level set (the command's default or the config decides). */
function noLevelEnv(): NodeJS.ProcessEnv {
  const env = cliEnv();
  delete env.TRACEJUDGE_LOG_LEVEL;
  return env;
}

/** The pino JSON lines of stderr. */
function logLines(stderr: string): { level: number; msg: string }[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });
}

describe('default log level', () => {
  it('extract and score log nothing at info by default: no log line on stderr, stdout has the records', async () => {
    const extract = await runCli(['extract', fx.path('traces.json')], { env: noLevelEnv() });
    expect(extract.code).toBe(0);
    expect(records(extract.stdout)).toHaveLength(2);
    expect(extract.stderr).toBe('');

    const config = fx.path('checks.yaml');
    writeFileSync(config, 'scorers: { clean: { type: excludes, unwanted: "xyzzy" } }\n');
    const score = await runCli(['score', '--all', '-c', config, fx.path('traces.json')], { env: noLevelEnv() });
    expect(score.code).toBe(0);
    expect(records(score.stdout).length).toBeGreaterThanOrEqual(1);
    // score's own summary goes to stderr as text; no log line does.
    expect(logLines(score.stderr)).toEqual([]);
    expect(score.stderr).toContain('summary: 2 run(s)');
  }, 90_000);

  it('telemetry.logLevel: info in the config brings the lifecycle lines back', async () => {
    const config = fx.path('info.yaml');
    writeFileSync(config, 'telemetry: { logLevel: info }\n');
    const r = await runCli(['extract', '-c', config, fx.path('traces.json')], { env: noLevelEnv() });
    expect(r.code).toBe(0);
    const msgs = logLines(r.stderr).map((l) => l.msg);
    expect(msgs).toContain('tracejudge started');
    expect(msgs).toContain('tracejudge stopped');
  }, 60_000);

  it('serve logs "tracejudge started" at info by default', async () => {
    const config = fx.path('serve.yaml');
    writeFileSync(config, ['sources:', '  otlp:', '    http: { host: 127.0.0.1, port: 0 }', '    grpc: { enabled: false }', 'emit:', '  stdout: { enabled: false }', '  prometheus: { enabled: false }', ''].join('\n'));
    const child = startCli(['serve', '-c', config], noLevelEnv());
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout?.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const kill = setTimeout(() => child.kill('SIGKILL'), 45_000);
    try {
      const started = await new Promise<boolean>((resolve) => {
        const poll = setInterval(() => {
          if (logLines(stderr).some((l) => l.msg === 'tracejudge started')) {
            clearInterval(poll);
            resolve(true);
          } else if (child.exitCode !== null) {
            clearInterval(poll);
            resolve(false);
          }
        }, 50);
      });
      expect(started, stderr).toBe(true);
      expect(logLines(stderr).find((l) => l.msg === 'tracejudge started')?.level).toBe(30);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(logLines(stderr).map((l) => l.msg)).toContain('tracejudge stopped');
    } finally {
      clearTimeout(kill);
    }
  }, 60_000);
});
