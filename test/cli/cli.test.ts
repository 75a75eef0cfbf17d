import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { cliEnv, records, ROOT, runCli } from './run-cli.js';

let fx: Fixtures;

beforeAll(async () => {
  fx = await makeFixtures();
  writeFileSync(
    fx.path('broken.yaml'),
    ['sampling:', '  agents:', '    "billing-*": { rate: 1.5 }', 'assembly:', '  decisionWaitMs: soon', '  bogus: 1', 'telemetry: { logLevel: loud }', ''].join('\n'),
  );
  writeFileSync(fx.path('small.yaml'), 'assembly:\n  maxBufferedTraces: 1\n');
});

/** The two traces of the fixtures, as `extract` describes them (order of first arrival). */
function expectBothTraces(out: Record<string, unknown>[]): void {
  const byId = new Map(out.map((r) => [r.traceId, r]));
  expect(out).toHaveLength(2);
  expect(byId.get(fx.traceA)).toMatchObject({
    spanCount: 3,
    root: { name: 'invoke_agent support-agent' },
    source: 'file',
  });
  expect((byId.get(fx.traceA)?.spanNames as string[]).slice().sort()).toEqual(['chat gpt-4o-mini', 'execute_tool lookup', 'invoke_agent support-agent']);
  expect(byId.get(fx.traceB)).toMatchObject({ spanCount: 1, root: { name: 'invoke_agent billing-agent' } });
}

/** Exactly one line on stderr starting with `tracejudge: ` (warn-level logs are JSON and excluded). */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('tracejudge: '));
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

describe('extract and score read every input format', () => {
  it.each(['traces.json', 'traces.jsonl', 'lines.json', 'traces.pb', 'traces.binpb', 'traces.json.gz', 'traces.pb.gz'])('extract %s', async (name) => {
    const r = await runCli(['extract', fx.path(name)]);
    expect(r.stderr).not.toContain('tracejudge: ');
    expect(r.code).toBe(0);
    expectBothTraces(records(r.stdout));
  });

  it.each([
    ['JSON', () => fx.json],
    ['protobuf', () => fx.proto],
    ['gzipped protobuf', () => gzipSync(fx.proto)],
    ['gzipped JSON lines', () => gzipSync(readFileSync(fx.path('traces.jsonl')))],
  ])('reads %s from stdin (-), detecting the format from the content', async (_label, input) => {
    const r = await runCli(['extract', '-'], { stdin: input() });
    expect(r.code).toBe(0);
    expectBothTraces(records(r.stdout));
  });

  it('joins OTLP logs given beside the traces (kind detected from content, JSON and protobuf mixed)', async () => {
    const r = await runCli(['extract', fx.path('logs.pb'), fx.path('traces.json'), fx.path('logs.json')]);
    expect(r.code).toBe(0);
    const out = records(r.stdout);
    expect(out.find((t) => t.traceId === fx.traceA)?.logCount).toBe(2);
    expect(out.find((t) => t.traceId === fx.traceB)?.logCount).toBe(0);
  });

  it('score prints JSON lines by default and a table with --format table; --all is accepted', async () => {
    const jsonl = await runCli(['score', '--all', fx.path('traces.pb')]);
    expect(jsonl.code).toBe(0);
    expectBothTraces(records(jsonl.stdout));
    const table = await runCli(['score', '--format', 'table', fx.path('traces.json')]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TRACE\s+SPANS\s+LOGS\s+ROOT$/);
    expect(lines.slice(1).sort()).toEqual(
      [`${fx.traceA}  3      0     invoke_agent support-agent`, `${fx.traceB}  1      0     invoke_agent billing-agent`].sort(),
    );
  });

  it('keeps going when the assembler is full (the file source pauses and flushes), losing nothing', async () => {
    const r = await runCli(['extract', '-c', fx.path('small.yaml'), fx.path('traces.jsonl')]);
    expect(r.code).toBe(0);
    expectBothTraces(records(r.stdout));
  });
});

describe('input errors: exit 2 with one line naming the file and place', () => {
  it('a missing file', async () => {
    const r = await runCli(['extract', fx.path('traces.json'), fx.path('missing.json')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe(`tracejudge: ${fx.path('missing.json')}: cannot read input (no such file)`);
    expect(r.stdout).toBe(''); // nothing is printed before every input has been read
  });

  it('malformed JSON: line and byte offset', async () => {
    const text = readFileSync(fx.path('bad.json'), 'utf8');
    const offset = Buffer.byteLength(text.slice(0, text.indexOf(' }') + 1));
    const r = await runCli(['score', fx.path('bad.json')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe(`tracejudge: ${fx.path('bad.json')}:3: invalid JSON at byte offset ${offset} (unexpected '}')`);
  });

  it('a malformed line in JSON lines: that line and its byte offset in the file', async () => {
    const text = readFileSync(fx.path('bad-lines.json'), 'utf8');
    const offset = text.indexOf('[}') + 1;
    const r = await runCli(['extract', fx.path('bad-lines.json')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe(`tracejudge: ${fx.path('bad-lines.json')}:2: invalid JSON at byte offset ${offset} (unexpected '}')`);
  });

  it('truncated protobuf: the byte offset', async () => {
    const r = await runCli(['extract', fx.path('bad.pb')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toMatch(new RegExp(`^tracejudge: ${fx.path('bad.pb').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*at byte offset \\d+`));
  });

  it('a .gz file that is not gzip, an empty file, and garbage on stdin', async () => {
    const notGzip = await runCli(['extract', fx.path('not-gzip.json.gz')]);
    expect(notGzip.code).toBe(2);
    expect(errorLine(notGzip.stderr)).toContain('not-gzip.json.gz: not gzip data');
    const empty = await runCli(['extract', fx.path('empty.json')]);
    expect(empty.code).toBe(2);
    expect(errorLine(empty.stderr)).toContain('empty.json:1: invalid JSON at byte offset 0 (unexpected end of input)');
    const garbage = await runCli(['extract', '-'], { stdin: '{"resourceSpans": [1, }' });
    expect(garbage.code).toBe(2);
    expect(errorLine(garbage.stderr)).toBe("tracejudge: <stdin>:1: invalid JSON at byte offset 22 (unexpected '}')");
  });
});

describe('config and usage errors', () => {
  it('score with a broken config: exit 2, one line naming the file and a key path', async () => {
    const r = await runCli(['score', '-c', fx.path('broken.yaml'), fx.path('traces.json')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toMatch(new RegExp(`^tracejudge: ${fx.path('broken.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [a-zA-Z"\\[\\]*.-]+: .+ \\(and \\d+ more\\)$`));
    expect(r.stdout).toBe('');
  });

  it('check-config prints every error with its key path and exits 2', async () => {
    const r = await runCli(['check-config', '-c', fx.path('broken.yaml')]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    const file = fx.path('broken.yaml');
    expect(lines).toContain(`${file}: sampling.agents["billing-*"].rate: must be between 0 and 1`);
    expect(lines).toContain(`${file}: assembly.bogus: unknown key`);
    expect(lines.some((l) => l.startsWith(`${file}: assembly.decisionWaitMs: `))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${file}: telemetry.logLevel: `))).toBe(true);
    expect(r.stdout).toBe('');
  });

  it('check-config accepts the example config (via TRACEJUDGE_CONFIG) and the built-in defaults', async () => {
    const example = await runCli(['check-config'], { env: cliEnv('warn', { TRACEJUDGE_CONFIG: `${ROOT}config/tracejudge.example.yaml` }) });
    expect(example.code).toBe(0);
    expect(example.stderr).toContain('tracejudge.example.yaml: config is valid');
    const defaults = await runCli(['check-config']);
    expect(defaults.code).toBe(0);
    expect(defaults.stderr).toContain('<defaults>: config is valid');
  });

  it('an unreadable config file is exit 2', async () => {
    const r = await runCli(['check-config', '-c', fx.path('nope.yaml')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(`${fx.path('nope.yaml')}: cannot read config`);
  });

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['extract', '--bogus', 'x.json'], "extract: Unknown option '--bogus'"],
    [['score', '--format', 'xml', 'x.json'], 'score: --format must be jsonl or table, got "xml"'],
    [['score'], 'score: no input files (use - for stdin)'],
    [['extract', '-', '-'], 'stdin (-) can be read only once'],
    [['serve', 'extra'], 'serve: unexpected argument "extra"'],
  ])('usage error %j → exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(message);
  });

  it('no command prints usage to stderr with exit 2; --help prints it to stdout with exit 0', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage:');
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tracejudge check-config [-c FILE]');
  });
});
