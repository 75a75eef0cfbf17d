#!/usr/bin/env node
/**
 * The `tracejudge` command line. Exit codes: 0 success, 1 runtime failure, 2 bad usage, bad config or
 * unreadable input, with a one-line message on stderr naming the file, key or offset. Every record written
 * to stdout is flushed before the process exits, to a pipe as well as to a file or a terminal.
 */
import { ErrorCodes, errorMessage, TracejudgeError, type ErrorCode } from '../errors.js';
import { createLogger, Secrets } from '../telemetry/log.js';
import { checkConfigCommand } from './commands/check-config.js';
import { extractCommand } from './commands/extract.js';
import { scoreCommand } from './commands/score.js';
import { serveCommand } from './commands/serve.js';
import type { CliContext } from './context.js';
import { RecordOutput } from './output.js';
import { USAGE, usageError } from './usage.js';

type Command = (args: readonly string[], cli: CliContext) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
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
export async function main(argv: readonly string[], cli: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === undefined) cli.output.error(USAGE);
    else await cli.output.record(USAGE);
    return name === undefined ? 2 : 0;
  }
  try {
    const command = COMMANDS[name];
    if (!command) throw usageError(`unknown command ${JSON.stringify(name)}; expected serve, score, extract or check-config`);
    if (rest.includes('--help') || rest.includes('-h')) {
      await cli.output.record(USAGE);
      return 0;
    }
    return await command(rest, cli);
  } catch (err) {
    const code = err instanceof TracejudgeError ? err.code : undefined;
    cli.output.error(`tracejudge: ${errorMessage(err)}`);
    if (code === undefined) cli.logger.error({ err }, 'unexpected failure');
    return code !== undefined && EXIT_2.has(code) ? 2 : 1;
  }
}

function flushLogs(cli: CliContext): Promise<void> {
  return new Promise((resolve) => {
    try {
      cli.logger.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}

const secrets = new Secrets();
const cli: CliContext = { logger: createLogger({ secrets }), secrets, output: new RecordOutput() };

main(process.argv.slice(2), cli).then(
  async (code) => {
    await cli.output.drain();
    await flushLogs(cli);
    process.exit(code);
  },
  async (err: unknown) => {
    cli.output.error(`tracejudge: ${errorMessage(err)}`);
    await cli.output.drain();
    await flushLogs(cli);
    process.exit(1);
  },
);
