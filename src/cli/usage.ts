/**
 * Argument parsing shared by the commands (node:util parseArgs), and the usage text.
 * Bad usage is a `TracejudgeError` with code USAGE, which `main` turns into exit code 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ErrorCodes, errorMessage, TracejudgeError } from '../errors.js';

export const USAGE = `usage:
  tracejudge serve [-c FILE]
  tracejudge score [-c FILE] [--all] [--format jsonl|table] FILE...
  tracejudge score [-c FILE] --dataset FILE.jsonl
  tracejudge score [-c FILE] --kafka TOPIC [--from-beginning] [--until-end]
  tracejudge extract [-c FILE] [--explain] FILE...
  tracejudge check-config [-c FILE] [--explain-sampling AGENT]

FILE is an OTLP/JSON document or JSON lines (.json), OTLP/protobuf (.pb, .binpb), optionally gzipped (.gz),
or - for stdin. Config: -c, else $TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else built-in defaults.
Exit codes: 0 success, 1 runtime failure, 2 bad usage, config or input.`;

export function usageError(message: string): TracejudgeError {
  return new TracejudgeError(ErrorCodes.USAGE, message);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parse a command's arguments strictly; unknown flags and missing values are usage errors. */
export function parseCommandArgs<O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(`${command}: ${errorMessage(err)}`);
  }
}

/** The shared `-c/--config` flag. */
export const configOption = { config: { type: 'string', short: 'c' } } as const;
