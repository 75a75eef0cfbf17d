#!/usr/bin/env node
/**
 * The `tracejudge` command line. Exit codes: 0 success, 1 runtime failure, 2 bad usage, bad config or
 * unreadable input, with a one-line message on stderr naming the file, key or offset. Every record written
 * to stdout is flushed before the process exits, to a pipe as well as to a file or a terminal.
 * `tracejudge --version` (or `-V`) prints the package version; `--help` (or `-h`) after a command prints that
 * command's usage and flags, from the same definitions its parser uses (src/cli/specs.ts).
 */
import { ErrorCodes, errorMessage, TracejudgeError, type ErrorCode } from '../errors.js';
import { createLogger, Secrets } from '../telemetry/log.js';
import type { CliContext } from './context.js';
import { RecordOutput } from './output.js';
import { packageVersion } from '../service/version.js';
import { CALIBRATE, CHECK_CONFIG, COMMAND_SPECS, DEMO, EXTRACT, SCORE, SERVE } from './specs.js';
import { commandHelp, mainHelp, usageError, wantsHelp, type CommandSpec } from './usage.js';

type Command = (args: readonly string[], cli: CliContext) => Promise<number>;

// Each command's module is loaded when that command runs: `serve` never loads the demo's sample agents or the
// calibration code, and the offline commands never load what only `serve` needs.
const COMMANDS: Readonly<Record<string, { spec: CommandSpec; run: Command }>> = {
  [SERVE.name]: { spec: SERVE, run: async (args, cli) => (await import('./commands/serve.js')).serveCommand(args, cli) },
  [SCORE.name]: { spec: SCORE, run: async (args, cli) => (await import('./commands/score.js')).scoreCommand(args, cli) },
  [EXTRACT.name]: { spec: EXTRACT, run: async (args, cli) => (await import('./commands/extract.js')).extractCommand(args, cli) },
  [CHECK_CONFIG.name]: { spec: CHECK_CONFIG, run: async (args, cli) => (await import('./commands/check-config.js')).checkConfigCommand(args, cli) },
  [DEMO.name]: { spec: DEMO, run: async (args, cli) => (await import('./commands/demo.js')).demoCommand(args, cli) },
  [CALIBRATE.name]: { spec: CALIBRATE, run: async (args, cli) => (await import('./commands/calibrate.js')).calibrateCommand(args, cli) },
};

/** Every command's description (what `tracejudge --help` lists); each has its runner in COMMANDS. */
const SPECS: readonly CommandSpec[] = COMMAND_SPECS;

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
  if (name === undefined) {
    cli.output.error(mainHelp(SPECS));
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    await cli.output.record(topic ? commandHelp(topic.spec) : mainHelp(SPECS));
    return 0;
  }
  if (name === '--version' || name === '-V') {
    await cli.output.record(packageVersion());
    return 0;
  }
  try {
    const command = COMMANDS[name];
    if (!command) throw usageError(`unknown command ${JSON.stringify(name)}; expected ${SPECS.map((s) => s.name).join(', ')} (see tracejudge --help)`);
    if (wantsHelp(rest)) {
      await cli.output.record(commandHelp(command.spec));
      return 0;
    }
    return await command.run(rest, cli);
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
