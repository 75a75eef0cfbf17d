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

/** The two agent runs of the fixtures, as `extract` prints them (docs/records.md, "The agent run"). */
function expectBothRuns(out: Record<string, unknown>[]): void {
  const byId = new Map(out.map((r) => [r.traceId, r]));
  expect(out).toHaveLength(2);
  expect(byId.get(fx.traceA)).toMatchObject({
    agentName: 'support-agent',
    convention: 'genai',
    serviceName: 'cli-test',
    toolResults: [{ toolName: 'lookup', toolCallId: 'call_1', args: { order: 42 }, result: { status: 'ships today', warehouse: 'Berlin' } }],
    output: [{ role: 'assistant', content: { content: 'Order 42 ships today from Berlin.' } }],
  });
  expect(byId.get(fx.traceB)).toMatchObject({
    agentName: 'billing-agent',
    input: { inputMessages: [{ role: 'user', content: { content: 'Refund my last invoice.' } }] },
    output: [{ role: 'assistant', content: { content: 'Your last invoice was refunded.' } }],
  });
}

/** Score records of the default code scorers: one per run and scorer. */
function expectScores(out: Record<string, unknown>[]): void {
  const keys = out.map((r) => `${String(r.traceId)}/${String(r.agentName)}/${String(r.scorer)}`).sort();
  // Trace A called a tool (all three default scorers apply); trace B did not (only tool-errors applies).
  const expected = [...['answered', 'grounding', 'tool-errors'].map((s) => `${fx.traceA}/support-agent/${s}`), `${fx.traceB}/billing-agent/tool-errors`];
  expect(keys).toEqual(expected.sort());
  for (const r of out) {
    expect(r.source).toBe('file');
    expect(typeof r.score).toBe('number');
    expect(['pass', 'fail']).toContain(r.label);
    expect(r.evaluationId).toMatch(/^[0-9a-f]{32}$/);
  }
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
    expectBothRuns(records(r.stdout));
  });

  it.each([
    ['JSON', () => fx.json],
    ['protobuf', () => fx.proto],
    ['gzipped protobuf', () => gzipSync(fx.proto)],
    ['gzipped JSON lines', () => gzipSync(readFileSync(fx.path('traces.jsonl')))],
  ])('reads %s from stdin (-), detecting the format from the content', async (_label, input) => {
    const r = await runCli(['extract', '-'], { stdin: input() });
    expect(r.code).toBe(0);
    expectBothRuns(records(r.stdout));
  });

  it('joins OTLP logs given beside the traces (kind detected from content, JSON and protobuf mixed)', async () => {
    const without = records((await runCli(['extract', fx.path('traces.json')])).stdout);
    expect(without.find((t) => t.traceId === fx.traceA)?.input).toMatchObject({ inputMessages: [] });
    const r = await runCli(['extract', fx.path('logs.pb'), fx.path('traces.json'), fx.path('logs.json')]);
    expect(r.code).toBe(0);
    const out = records(r.stdout);
    // The user turn of trace A lives only in the gen_ai.user.message log event.
    expect(out.find((t) => t.traceId === fx.traceA)?.input).toMatchObject({ inputMessages: [{ role: 'user', content: { content: 'Where is my order?' } }] });
    expect(out.find((t) => t.traceId === fx.traceB)?.input).toMatchObject({ inputMessages: [{ role: 'user', content: { content: 'Refund my last invoice.' } }] });
  });

  it('extract --explain says per trace what was seen, on stderr, keeping stdout for runs', async () => {
    const r = await runCli(['extract', '--explain', fx.path('traces.json')]);
    expect(r.code).toBe(0);
    expectBothRuns(records(r.stdout));
    expect(r.stderr).toContain(`trace ${fx.traceA}: 3 span(s), conventions genai(3), 1 run(s)`);
    expect(r.stderr).toContain(`\`support-agent\` (genai)`);
    // Trace A's user turn was sent as a log record that is not in this file: the run is found but empty.
    const warning = r.stderr.split('\n').filter((l) => l.startsWith(`trace ${fx.traceA}: warning: `));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain('has no input text');
    expect(warning[0]).toContain('no-input');
    expect(warning[0]).toContain('log records');
    expect(warning[0]).toContain('no log records arrived for this trace');
    // Trace B has its input and output on the spans: no warning.
    expect(r.stderr).not.toContain(`trace ${fx.traceB}: warning`);
    // With the logs beside the traces, nothing is empty.
    const joined = await runCli(['extract', '--explain', fx.path('logs.json'), fx.path('traces.json')]);
    expect(joined.stderr).not.toContain(': warning: ');
  });

  it('score prints one record per run and scorer as JSON lines by default, and a table with --format table', async () => {
    // Trace A's user turn is in its log records: from the traces alone the run has no input, and every scorer
    // skips it (no-input) instead of scoring an empty run.
    const alone = await runCli(['score', '--all', fx.path('traces.pb')]);
    expect(alone.code).toBe(0);
    expect(records(alone.stdout).map((r) => `${String(r.traceId)}/${String(r.scorer)}`)).toEqual([`${fx.traceB}/tool-errors`]);
    const jsonl = await runCli(['score', '--all', fx.path('logs.pb'), fx.path('traces.pb')]);
    expect(jsonl.code).toBe(0);
    expectScores(records(jsonl.stdout));
    const table = await runCli(['score', '--format', 'table', fx.path('logs.json'), fx.path('traces.json')]);
    expect(table.code).toBe(0);
    // One row per record (reasons go on an indented line below their row; see test/cli/score-table.test.ts).
    const lines = table.stdout.trimEnd().split('\n').filter((l) => !l.startsWith(' '));
    expect(lines[0]).toMatch(/^TRACE\s+AGENT\s+SCORER\s+SCORE\s+INPUT\s+OUTPUT$/);
    // The header, three records of trace A, one of trace B (see expectScores).
    expect(lines).toHaveLength(5);
    expect(lines.filter((l) => l.startsWith(fx.traceB.slice(0, 8)) && l.includes('billing-agent'))).toHaveLength(1);
  });

  it('score --dataset scores JSON lines of {input, output, groundTruth} with runEvals and prints a summary', async () => {
    writeFileSync(
      fx.path('dataset.jsonl'),
      [
        JSON.stringify({ input: 'Name the colors red, green and blue.', output: 'Red, green and blue.' }),
        JSON.stringify({ input: 'no output: left out' }),
        JSON.stringify({ input: 'List three fruits: apple, pear, plum.', output: 'Apple and pear.', groundTruth: 'apple, pear, plum' }),
        '',
      ].join('\n'),
    );
    writeFileSync(fx.path('dataset.yaml'), 'scorers:\n  keywords: { type: keyword-coverage }\n  similarity: { type: content-similarity, threshold: 0.3 }\n');
    const r = await runCli(['score', '-c', fx.path('dataset.yaml'), '--dataset', fx.path('dataset.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 item(s) without "output" left out (lines 2)');
    const out = records(r.stdout);
    const items = out.filter((o) => 'line' in o);
    expect(items.map((o) => `${String(o.line)}/${String(o.scorer)}`)).toEqual(['1/keywords', '1/similarity', '3/keywords', '3/similarity']);
    for (const o of items) expect(o.score).toBeTypeOf('number');
    const summary = out.at(-1) as { summary: { totalItems: number }; scores: Record<string, number> };
    expect(summary.summary.totalItems).toBe(2);
    const mean = (name: string): number => items.filter((o) => o.scorer === name).reduce((n, o) => n + (o.score as number), 0) / 2;
    expect(summary.scores.keywords).toBeCloseTo(mean('keywords'), 12);
    expect(summary.scores.similarity).toBeCloseTo(mean('similarity'), 12);

    writeFileSync(fx.path('bad-dataset.jsonl'), `${JSON.stringify({ input: 'a', output: 'b' })}\n{"input": oops}\n`);
    const bad = await runCli(['score', '--dataset', fx.path('bad-dataset.jsonl')]);
    expect(bad.code).toBe(2);
    expect(errorLine(bad.stderr)).toContain(`${fx.path('bad-dataset.jsonl')}:2: invalid JSON`);
  });

  it('keeps going when the assembler is full (the file source pauses and flushes), losing nothing', async () => {
    const r = await runCli(['extract', '-c', fx.path('small.yaml'), fx.path('traces.jsonl')]);
    expect(r.code).toBe(0);
    expectBothRuns(records(r.stdout));
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

  it('check-config --explain-sampling prints the effective rate and rules per scorer for an agent', async () => {
    writeFileSync(
      fx.path('sampling.yaml'),
      [
        'scorers:',
        '  similarity: { type: content-similarity }',
        '  keywords: { type: keyword-coverage }',
        'sampling:',
        '  default: { rate: 0.1 }',
        '  agents:',
        '    support-agent: { rate: 1.0 }',
        '    "billing-*": { rate: 0.5, scorers: { keywords: 0.05 }, rules: [{ type: errors, name: errors }] }',
        '',
      ].join('\n'),
    );
    const r = await runCli(['check-config', '-c', fx.path('sampling.yaml'), '--explain-sampling', 'billing-eu']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('agent "billing-eu"');
    expect(lines).toContain('  matches sampling.agents["billing-*"] (glob)');
    expect(lines.some((l) => l.includes('errors') && l.includes('1.'))).toBe(true);
    expect(lines).toContain('    similarity (code): rate 0.5 [sampling.agents["billing-*"].rate]');
    expect(lines).toContain('    keywords (code): rate 0.05 [sampling.agents["billing-*"].scorers.keywords]');
  });

  it('a judge scorer without a judge API key is a config error at its key path (check-config and score)', async () => {
    writeFileSync(fx.path('needs-judge.yaml'), 'scorers:\n  hallucination: { type: hallucination }\n  similarity: { type: content-similarity }\n');
    const check = await runCli(['check-config', '-c', fx.path('needs-judge.yaml')]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(`${fx.path('needs-judge.yaml')}: scorers.hallucination.type: type hallucination needs the LLM judge; set judge.apiKey or OPENAI_API_KEY`);
    const score = await runCli(['score', '-c', fx.path('needs-judge.yaml'), fx.path('traces.json')]);
    expect(score.code).toBe(2);
    expect(errorLine(score.stderr)).toContain('scorers.hallucination.type: type hallucination needs the LLM judge');
    const withKey = await runCli(['check-config', '-c', fx.path('needs-judge.yaml')], { env: cliEnv('warn', { OPENAI_API_KEY: 'sk-test-not-used' }) });
    expect(withKey.code).toBe(0);
  });

  it('an unreadable config file is exit 2', async () => {
    const r = await runCli(['check-config', '-c', fx.path('nope.yaml')]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toBe(`tracejudge: config file ${fx.path('nope.yaml')} does not exist`);
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
