#!/usr/bin/env node
/**
 * The `tracejudge` command line (SPEC §2). Exit codes: 0 success, 1 runtime failure, 2 bad usage, bad
 * config or unreadable input, with a one-line message on stderr naming the file, key or offset.
 */
import '../scorers/builtin.js';
import { ErrorCodes, errorMessage, TracejudgeError, type ErrorCode } from '../errors.js';
import { logger } from '../telemetry/log.js';
import { checkConfigCommand } from './commands/check-config.js';
import { extractCommand } from './commands/extract.js';
import { scoreCommand } from './commands/score.js';
import { serveCommand } from './commands/serve.js';
import { writeError, writeRecord } from './output.js';
import { USAGE, usageError } from './usage.js';

type Command = (args: readonly string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  score: scoreCommand,
  extract: extractCommand,
  'check-config': checkConfigCommand,
};

const EXIT_2: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  ErrorCodes.USAGE,
  ErrorCodes.CONFIG_INVALID,
  ErrorCodes.CONFIG_UNREADABLE,
  ErrorCodes.INPUT_UNREADABLE,
  ErrorCodes.INPUT_MALFORMED,
  ErrorCodes.SCORER_MODULE,
]);

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? writeError : writeRecord)(USAGE);
    return name === undefined ? 2 : 0;
  }
  try {
    const command = COMMANDS[name];
    if (!command) throw usageError(`unknown command ${JSON.stringify(name)}; expected serve, score, extract or check-config`);
    if (rest.includes('--help') || rest.includes('-h')) {
      writeRecord(USAGE);
      return 0;
    }
    return await command(rest);
  } catch (err) {
    const code = err instanceof TracejudgeError ? err.code : undefined;
    writeError(`tracejudge: ${errorMessage(err)}`);
    if (code === undefined) logger.error({ err }, 'unexpected failure');
    return code !== undefined && EXIT_2.has(code) ? 2 : 1;
  }
}

function flushLogs(): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
});

main(process.argv.slice(2)).then(
  async (code) => {
    await flushLogs();
    process.exit(code);
  },
  async (err: unknown) => {
    writeError(`tracejudge: ${errorMessage(err)}`);
    await flushLogs();
    process.exit(1);
  },
);
