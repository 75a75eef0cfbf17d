/**
 * `tracejudge --version` and `--help`: the version is package.json's, and each command's help lists exactly the
 * flags its parser accepts (both read the command's one description in src/cli/specs.ts). In process for the
 * parser/help agreement, then through the real CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALIBRATE, COMMAND_SPECS, DEMO, EXTRACT, SCORE } from '../../src/cli/specs.js';
import { commandHelp, parseCommandArgs, type CommandSpec } from '../../src/cli/usage.js';
import { TracejudgeError } from '../../src/errors.js';
import { ROOT, runCli } from './run-cli.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SPECS: readonly CommandSpec[] = COMMAND_SPECS;
/** The commands of the CLI, named independently of the list under test. */
const NAMES = ['serve', 'score', 'extract', 'check-config', 'demo', 'calibrate'];

/** Every `--flag` (and `-x`) a help text mentions. */
function flagsIn(text: string): { long: Set<string>; short: Set<string> } {
  return { long: new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1] as string)), short: new Set([...text.matchAll(/(?<![\w-])-([a-zA-Z])\b/g)].map((m) => m[1] as string)) };
}

/**
 * Whether the command's parser accepts `--name` / `-x` (with a value, which a boolean flag leaves as a
 * positional: the flag's first allowed value when it has a list, else a word).
 */
function accepts(spec: CommandSpec, arg: string): boolean {
  const flag = arg.startsWith('--') ? spec.flags[arg.slice(2)] : Object.values(spec.flags).find((f) => f.short === arg.slice(1));
  try {
    parseCommandArgs(spec, [arg, flag?.choices?.[0] ?? 'word']);
    return true;
  } catch (err) {
    if (err instanceof TracejudgeError) return false;
    throw err;
  }
}

it('COMMAND_SPECS describes every command, demo and calibrate included', () => {
  expect(SPECS.map((s) => s.name).sort()).toEqual([...NAMES].sort());
});

it("the README's command table has a row for every command", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /\n## Command line\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| `tracejudge '));
  for (const name of NAMES) expect(rows.some((r) => r.startsWith(`| \`tracejudge ${name} `)), name).toBe(true);
});

describe.each(SPECS.map((s) => [s.name, s] as const))('%s --help', (_name, spec) => {
  const help = commandHelp(spec);

  it('mentions only flags the parser accepts', () => {
    const { long, short } = flagsIn(help);
    expect(long.size).toBeGreaterThan(1);
    for (const flag of long) expect(accepts(spec, `--${flag}`), `--${flag}`).toBe(true);
    for (const flag of short) expect(accepts(spec, `-${flag}`), `-${flag}`).toBe(true);
  });

  it('lists every flag the parser accepts, and the parser refuses others', () => {
    const { long } = flagsIn(help);
    for (const flag of Object.keys(spec.flags)) expect(long, flag).toContain(flag);
    expect(long).toContain('help');
    expect(accepts(spec, '--bogus')).toBe(false);
  });

  it('starts with its own usage lines', () => {
    expect(help.split('\n')[0]).toBe(`usage: tracejudge ${spec.synopsis[0]}`);
  });
});

describe('the CLI', () => {
  it('--version and -V print the package.json version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
    }
  }, 60_000);

  it('COMMAND --help describes that command only, on stdout, exit 0 (serve does not start)', async () => {
    const score = await runCli(['score', '--help']);
    expect(score.code).toBe(0);
    expect(score.stdout).toBe(`${commandHelp(SCORE)}\n`);
    expect(score.stdout).not.toContain('--explain-sampling');
    const check = await runCli(['check-config', '-h']);
    expect(check.stdout).toContain('--explain-sampling AGENT');
    expect(check.stdout).not.toContain('--dataset');
    const serve = await runCli(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.stdout.split('\n')[0]).toBe('usage: tracejudge serve [-c FILE]');
    expect(serve.stderr).toBe('');
  }, 60_000);

  it('demo --help and calibrate --help describe their own flags, and neither command starts', async () => {
    const demo = await runCli(['demo', '--help']);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toBe(`${commandHelp(DEMO)}\n`);
    expect(demo.stdout).toContain('--duration SECONDS');
    expect(demo.stdout).not.toContain('--labels');
    expect(demo.stderr).toBe('');
    const calibrate = await runCli(['calibrate', '-h']);
    expect(calibrate.code).toBe(0);
    expect(calibrate.stdout).toBe(`${commandHelp(CALIBRATE)}\n`);
    for (const flag of ['--labels FILE', '--precision P', '--label-attribute KEY', '--format table|json']) expect(calibrate.stdout).toContain(flag);
    expect(calibrate.stdout).not.toContain('--duration');
  }, 60_000);

  it('--help lists the commands; `help COMMAND` is COMMAND --help', async () => {
    const all = await runCli(['--help']);
    expect(all.code).toBe(0);
    for (const spec of SPECS) expect(all.stdout).toContain(`  tracejudge ${spec.synopsis[0]}`);
    for (const name of NAMES) expect(all.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(all.stdout).toContain('tracejudge --version');
    const topic = await runCli(['help', 'extract']);
    expect(topic.stdout).toBe(`${commandHelp(EXTRACT)}\n`);
  }, 60_000);
});
