/** Spawns the CLI the way a user does (`node --import tsx src/cli/main.ts ...`), from the repository root. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for the child: no inherited config, logs at `logLevel` (VITEST would silence them). */
export function cliEnv(logLevel = 'warn', extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.VITEST;
  delete env.TRACEJUDGE_CONFIG;
  delete env.OPENAI_API_KEY;
  return { ...env, TRACEJUDGE_LOG_LEVEL: logLevel, ...extra };
}

export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = cliEnv()): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function runCli(args: readonly string[], options: { stdin?: Uint8Array | string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const child = startCli(args, options.env);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin?.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** stdout lines, each of which must be a JSON record. */
export function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
