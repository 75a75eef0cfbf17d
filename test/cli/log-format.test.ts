/**
 * Readable logs (issue #32): text on a terminal or with `telemetry.logFormat: text` (local time, level name,
 * message, fields), pino JSON otherwise; TRACEJUDGE_LOG_FORMAT wins over the config. Through the real CLI.
 */
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { cliEnv, runCli } from './run-cli.js';
import { haveScript, runOnTerminal } from './terminal.js';

let fx: Fixtures;
const TEXT_LINE = /^\d\d:\d\d:\d\d\.\d{3} INFO {2}tracejudge started( |$)/m;

beforeAll(async () => {
  fx = await makeFixtures();
  writeFileSync(fx.path('text.yaml'), 'telemetry: { logLevel: info, logFormat: text }\n');
  writeFileSync(fx.path('info-only.yaml'), 'telemetry: { logLevel: info }\n');
});

describe('log format', () => {
  it('telemetry.logFormat: text writes readable lines with the local time and the level name, not JSON', async () => {
    const before = new Date();
    const r = await runCli(['extract', '-c', fx.path('text.yaml'), fx.path('traces.json')], { env: cliEnv('info') });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(TEXT_LINE);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
    // Local time: the hour of this machine's clock (allowing for a run across the hour).
    const hour = Number(TEXT_LINE.exec(r.stderr)?.[0].slice(0, 2));
    expect([before.getHours(), new Date().getHours()]).toContain(hour);
    // stdout keeps only the records.
    expect(r.stdout.trim().split('\n').every((l) => l.startsWith('{"'))).toBe(true);
  }, 60_000);

  it('TRACEJUDGE_LOG_FORMAT=json wins over the config; not a terminal and no config: JSON', async () => {
    const forced = await runCli(['extract', '-c', fx.path('text.yaml'), fx.path('traces.json')], { env: cliEnv('info', { TRACEJUDGE_LOG_FORMAT: 'json' }) });
    expect(forced.stderr).not.toMatch(TEXT_LINE);
    expect(forced.stderr).toContain('"msg":"tracejudge started"');
    const piped = await runCli(['extract', '-c', fx.path('info-only.yaml'), fx.path('traces.json')], { env: cliEnv('info') });
    expect(piped.stderr.split('\n').find((l) => l.includes('tracejudge started'))).toMatch(/^\{"level":30,"time":\d+/);
  }, 60_000);

  it.runIf(haveScript)('on a terminal the default is text', async () => {
    // A warning (runOnTerminal runs at warn): one span of the input has an invalid id.
    const span = (spanId: string) => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId, name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2' });
    writeFileSync(fx.path('one-bad.json'), JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span('00f067aa0ba902b7'), span('zz')] }] }] }));
    const t = await runOnTerminal(['extract', fx.path('one-bad.json')], fx.path('tty-out.jsonl'), 60_000);
    expect(t.code).toBe(0);
    expect(t.plain).toMatch(/\d\d:\d\d:\d\d\.\d{3} WARN {2}\S*one-bad\.json: 1 spans rejected input=\S*one-bad\.json rejected=1 errors=\[/);
    expect(t.plain).not.toContain('"level":40');
  }, 70_000);
});
