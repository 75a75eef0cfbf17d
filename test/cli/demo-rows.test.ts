/**
 * The demo on a terminal that reports 0 rows (some CI and container ptys): it must still print its view and
 * the final summary (log-update clips its output to the rows, so it drew nothing). Run under `script` with
 * `stty rows 0`, as such a terminal looks to the process.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SAMPLE_AGENTS } from '../../src/demo/agents.js';
import { cliEnv, ROOT } from './run-cli.js';
import { haveScript, SCRIPT } from './terminal.js';

async function demoOnTerminal(rows: number, durationS: number): Promise<{ code: number | null; out: string }> {
  const cli = `${process.execPath} --import tsx src/cli/main.ts demo --duration ${durationS}`;
  const child = spawn(SCRIPT, ['-qefc', `stty rows ${rows} cols 120; ${cli}`, '/dev/null'], { cwd: ROOT, env: cliEnv('warn'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  // eslint-disable-next-line no-control-regex
  return { code, out: out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '\n') };
}

describe.skipIf(!haveScript)(`demo on a terminal of 0 rows (skipped without ${SCRIPT})`, () => {
  it('prints the endpoint and the final summary with every agent', async () => {
    const { code, out } = await demoOnTerminal(0, 5);
    expect(code, out.slice(-2000)).toBe(0);
    expect(out).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/127\.0\.0\.1:\d+/);
    const final = out.slice(out.lastIndexOf('final summary'));
    expect(out).toContain('final summary');
    for (const a of SAMPLE_AGENTS) expect(final).toMatch(new RegExp(`^${a.name}\\s+[1-9]\\d*\\s`, 'm'));
  }, 90_000);
});
