/**
 * Command definitions, argument parsing and help text. Each command is described once (`CommandSpec`: its
 * synopsis, summary and flags); the parser (node:util parseArgs) and `--help` both read that description,
 * so the help can only list flags the command really accepts. Bad usage is a `TracejudgeError` with code
 * USAGE, which `main` turns into exit code 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ErrorCodes, errorMessage, TracejudgeError } from '../errors.js';

/** One command-line flag. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** One-letter alias, e.g. `c` for `-c`. */
  readonly short?: string;
  /** What the value is, shown in the help (`FILE`, `TOPIC`); string flags only. */
  readonly value?: string;
  /** The only values accepted (checked by the parser; the help lists them). */
  readonly choices?: readonly string[];
  readonly default?: string;
  /** One line for the help. */
  readonly help: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** One command: what `--help` prints and what the parser accepts. */
export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  readonly name: string;
  /** Usage lines without the leading `tracejudge `, e.g. `serve [-c FILE]`. */
  readonly synopsis: readonly string[];
  /** One line for the command list of `tracejudge --help`. */
  readonly summary: string;
  /** A few lines of description shown under the usage. */
  readonly description: string;
  readonly flags: F;
}

/** Define a command (keeps the flag names as literal types, so parsed values are typed). */
export function defineCommand<const F extends FlagSpecs>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

/** The shared `-c/--config` flag. */
export const configFlag = {
  config: { type: 'string', short: 'c', value: 'FILE', help: 'config file (default: $TRACEJUDGE_CONFIG, else ./tracejudge.yaml if present, else the built-in defaults)' },
} as const satisfies FlagSpecs;

/** `-h/--help`, accepted by every command. */
const HELP_FLAG: FlagSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };

export function usageError(message: string): TracejudgeError {
  return new TracejudgeError(ErrorCodes.USAGE, message);
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

/** Parsed flag values: a string or boolean per flag, present when given (or defaulted). */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string;
} & { help?: boolean };

function parseOptionsOf(flags: FlagSpecs): ParseOptions {
  const out: ParseOptions = {};
  for (const [name, f] of Object.entries({ ...flags, help: HELP_FLAG })) {
    out[name] = f.type === 'string'
      ? { type: 'string', ...(f.short ? { short: f.short } : {}), ...(f.default !== undefined ? { default: f.default } : {}) }
      : { type: 'boolean', ...(f.short ? { short: f.short } : {}) };
  }
  return out;
}

/**
 * Parse a command's arguments strictly against its flags: unknown flags, missing values and values outside
 * `choices` are usage errors naming the command.
 */
export function parseCommandArgs<F extends FlagSpecs>(spec: CommandSpec<F>, args: readonly string[]): { values: FlagValues<F>; positionals: string[] } {
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: parseOptionsOf(spec.flags), allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(`${spec.name}: ${errorMessage(err)}`);
  }
  for (const [name, f] of Object.entries(spec.flags)) {
    const v = parsed.values[name];
    if (f.choices && typeof v === 'string' && !f.choices.includes(v)) {
      throw usageError(`${spec.name}: --${name} must be ${f.choices.join(' or ')}, got ${JSON.stringify(v)}`);
    }
  }
  return { values: parsed.values as FlagValues<F>, positionals: parsed.positionals };
}

/** True when `args` ask for help (`-h` / `--help` before any `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

function flagLabel(name: string, f: FlagSpec): string {
  const value = f.type === 'string' ? ` ${f.choices ? f.choices.join('|') : (f.value ?? 'VALUE')}` : '';
  return `${f.short ? `-${f.short}, ` : '    '}--${name}${value}`;
}

/** The options table of a command (every flag the parser accepts, `--help` included). */
function optionsText(flags: FlagSpecs): string {
  const rows = Object.entries({ ...flags, help: HELP_FLAG }).map(([name, f]) => [flagLabel(name, f), f.default !== undefined ? `${f.help} (default: ${f.default})` : f.help] as const);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, help]) => `  ${label.padEnd(width)}  ${help}`).join('\n');
}

/** `tracejudge COMMAND --help`. */
export function commandHelp(spec: CommandSpec): string {
  const [first = spec.name, ...more] = spec.synopsis;
  return [
    `usage: tracejudge ${first}`,
    ...more.map((s) => `       tracejudge ${s}`),
    '',
    spec.description,
    '',
    'options:',
    optionsText(spec.flags),
    '',
    EXIT_CODES,
  ].join('\n');
}

const EXIT_CODES = 'Exit codes: 0 success, 1 runtime failure, 2 bad usage, config or input.';

/** `tracejudge --help` (and, on stderr, what a bare `tracejudge` prints). */
export function mainHelp(specs: readonly CommandSpec[]): string {
  const width = Math.max(...specs.map((s) => s.name.length));
  return [
    'usage:',
    ...specs.flatMap((s) => s.synopsis.map((line) => `  tracejudge ${line}`)),
    '  tracejudge --version',
    '',
    'commands:',
    ...specs.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    "Run 'tracejudge COMMAND --help' for the options of a command.",
    'FILE is an OTLP/JSON document or JSON lines (.json), OTLP/protobuf (.pb, .binpb), optionally gzipped (.gz),',
    'or - for stdin. Config: -c, else $TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else built-in defaults.',
    EXIT_CODES,
  ].join('\n');
}
