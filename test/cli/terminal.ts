/**
 * Runs the CLI on a real pseudo-terminal: `script` (util-linux) gives the command a terminal as stderr while
 * its stdout goes to a file, which is how a user watching `score`'s progress bar runs it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cliEnv, ROOT } from './run-cli.js';

export const SCRIPT = '/usr/bin/script';
export const haveScript = existsSync(SCRIPT);

const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;

/** What the terminal showed, with cursor and line controls turned into line breaks, and the exit code. */
export interface TerminalRun {
  code: number | null;
  /** The terminal output with control sequences replaced by newlines. */
  plain: string;
  /** The progress bar's frames: the lines starting with `score [`. */
  frames: string[];
}

/** `tracejudge ARGS > stdoutFile` on a pseudo-terminal of 120 columns, killed after `timeoutMs`. */
export async function runOnTerminal(args: readonly string[], stdoutFile: string, timeoutMs: number): Promise<TerminalRun> {
  const cli = [process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...args].map(quote).join(' ');
  const child = spawn(SCRIPT, ['-qefc', `${cli} > ${quote(stdoutFile)}`, '/dev/null'], { cwd: ROOT, env: { ...cliEnv('warn'), COLUMNS: '120' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let tty = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (tty += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  // eslint-disable-next-line no-control-regex
  const plain = tty.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, '\n');
  return { code, plain, frames: plain.split(/[\r\n]+/).filter((l) => l.startsWith('score [')) };
}
