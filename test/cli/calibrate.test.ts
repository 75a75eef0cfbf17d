/**
 * `tracejudge calibrate` against a confusion matrix computed by hand. Eight runs (real OTel SDK spans in the
 * GenAI convention) state their own score; a custom scorer reads it, threshold 0.5 (fails below):
 *
 *   run     1    2    3    4    5    6    7    8
 *   score  0.1  0.2  0.3  0.4  0.6  0.7  0.8  0.9
 *   label  fail fail pass fail pass fail pass pass      (run 8's label is the span attribute tracejudge.label)
 *   split  tune tune tune tune hold hold hold hold
 *
 * At 0.5 the runs 1–4 fail: TP 3 (1, 2, 4), FP 1 (3), FN 1 (6), TN 3 → precision 3/4, recall 3/4, F1 3/4.
 * Thresholds between the scores: 0.15 → P 1, R 1/4; 0.25 → P 1, R 1/2; 0.35 → P 2/3, R 1/2; 0.65 → P 3/5,
 * R 3/4; 0.75 → P 4/6, R 1, F1 0.8 (the best); 0.85 → P 4/7, R 1. Precision ≥ 0.9 with the most recall: 0.25.
 * Verdicts: 6 of 8 right; tune 3/4 (run 3 a false alert), holdout 3/4 (run 6 missed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalibrationReport } from '../../src/calibrate/report.js';
import { byMarker, reply, startStubJudge } from '../../src/testing/stub-judge/index.js';
import { runCli } from './run-cli.js';

const RUNS: { score: number; label: 'pass' | 'fail'; split: string }[] = [
  { score: 0.1, label: 'fail', split: 'tune' },
  { score: 0.2, label: 'fail', split: 'tune' },
  { score: 0.3, label: 'pass', split: 'tune' },
  { score: 0.4, label: 'fail', split: 'tune' },
  { score: 0.6, label: 'pass', split: 'holdout' },
  { score: 0.7, label: 'fail', split: 'holdout' },
  { score: 0.8, label: 'pass', split: 'holdout' },
  { score: 0.9, label: 'pass', split: 'holdout' },
];

const dir = mkdtempSync(join(tmpdir(), 'tj-calibrate-'));
const path = (name: string): string => join(dir, name);
const module = fileURLToPath(new URL('./calibrate-fixtures/score-in-answer.ts', import.meta.url));
let traceIds: string[] = [];

beforeAll(() => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'calibrate-test' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('calibrate-test');
  RUNS.forEach((r, i) => {
    const last = i === RUNS.length - 1;
    tracer
      .startSpan(
        'invoke_agent support-agent',
        {
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': 'support-agent',
            'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `question ${i + 1}` }] }]),
            'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `answer with score ${r.score}` }] }]),
            ...(last ? { 'tracejudge.label': r.label, 'tracejudge.label.split': r.split } : {}),
          },
        },
        ROOT_CONTEXT,
      )
      .end();
  });
  const spans = exporter.getFinishedSpans();
  traceIds = spans.map((s) => s.spanContext().traceId);
  writeFileSync(path('traces.json'), JsonTraceSerializer.serializeRequest(spans) as Uint8Array);
  // Run 8 is labeled by its span attribute only.
  const rows = RUNS.slice(0, 7).map((r, i) => JSON.stringify({ traceId: traceIds[i], agent: 'support-agent', label: r.label, split: r.split }));
  writeFileSync(path('labels.jsonl'), `# labels of the calibrate test\n${rows.join('\n')}\n`);
  writeFileSync(path('tracejudge.yaml'), `scorers:\n  stated: { type: custom, module: ${JSON.stringify(module)}, threshold: 0.5 }\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tracejudge calibrate', () => {
  it('reports precision, recall, F1, the confusion matrix and the thresholds computed by hand (JSON)', async () => {
    const r = await runCli(['calibrate', '-c', path('tracejudge.yaml'), '--labels', path('labels.jsonl'), '--precision', '0.9', '--format', 'json', path('traces.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as CalibrationReport;
    expect(report.runs).toEqual({ found: 8, labeled: 8, unlabeled: 0, labelsWithoutRun: [] });
    const [s] = report.scorers;
    expect(s?.name).toBe('stated');
    expect(s?.kind).toBe('code');
    expect(s?.confusion).toEqual({ tp: 3, fp: 1, fn: 1, tn: 3 });
    expect([s?.precision, s?.recall, s?.f1, s?.accuracy]).toEqual([0.75, 0.75, 0.75, 0.75]);
    expect(s?.bestF1?.threshold).toBe(0.75);
    expect(s?.bestF1?.confusion).toEqual({ tp: 4, fp: 2, fn: 0, tn: 2 });
    expect(s?.bestF1?.f1).toBeCloseTo(0.8, 12);
    expect(s?.atPrecision?.threshold).toBe(0.25);
    expect([s?.atPrecision?.precision, s?.atPrecision?.recall]).toEqual([1, 0.5]);
    expect([report.verdict.correct, report.verdict.runs, report.verdict.accuracy]).toEqual([6, 8, 0.75]);
    expect(report.verdict.confusion).toEqual({ tp: 3, fp: 1, fn: 1, tn: 3 });
    expect(report.splits.tune?.confusion).toEqual({ tp: 3, fp: 1, fn: 0, tn: 0 });
    expect(report.splits.holdout?.confusion).toEqual({ tp: 0, fp: 0, fn: 1, tn: 3 });
    expect(report.misjudged.map((m) => [m.traceId, m.label, m.verdict])).toEqual(
      [[traceIds[2], 'pass', 'fail'], [traceIds[5], 'fail', 'pass']].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  }, 60_000);

  it('prints the same as a table', async () => {
    const r = await runCli(['calibrate', '-c', path('tracejudge.yaml'), '--labels', path('labels.jsonl'), path('traces.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verdict (configured set): 6/8 verdicts right (accuracy 0.750)');
    expect(r.stdout).toContain('split holdout: 3/4 verdicts right');
    const row = r.stdout.split('\n').find((l) => l.startsWith('stated'));
    // FALSE-ALARMS: the share of pass-labeled runs given a fail, FP / (FP + TN) = 1 / 4.
    expect(row?.split(/\s{2,}/)).toEqual(['stated', 'custom', '<0.5', '8', '0', '3', '1', '1', '3', '0.750', '0.750', '0.750', '0.250', '0.75 (F1 0.800)', '0.25 (R 0.500)']);
    expect(r.stdout).toContain('verdict (configured set): 6/8 verdicts right (accuracy 0.750); false alarms 0.250;');
  }, 60_000);

  it('per-scorer labels override the run label for that scorer', async () => {
    // Run 3 (0.3) labeled fail for the scorer: at 0.5 every predicted fail is right.
    const rows = RUNS.map((r, i) => JSON.stringify({ traceId: traceIds[i], label: r.label, ...(i === 2 ? { scorers: { stated: 'fail' } } : {}) }));
    writeFileSync(path('per-scorer.jsonl'), `${rows.join('\n')}\n`);
    const r = await runCli(['calibrate', '-c', path('tracejudge.yaml'), '--labels', path('per-scorer.jsonl'), '--format', 'json', path('traces.json')]);
    const report = JSON.parse(r.stdout) as CalibrationReport;
    expect(report.scorers[0]?.confusion).toEqual({ tp: 4, fp: 0, fn: 1, tn: 3 });
    // The run verdict still compares with the run label.
    expect(report.verdict.confusion).toEqual({ tp: 3, fp: 1, fn: 1, tn: 3 });
  }, 60_000);

  it('measures a judge scorer through the same engine (the stub judge answers what the run states)', async () => {
    // The judge says "bad" exactly for the runs whose stated score is below 0.5, so the judge scorer's matrix
    // is the hand-computed one above: TP 3, FP 1, FN 1, TN 3.
    const stub = await startStubJudge({
      script: byMarker([['Is this answer good', (req) => (req.jsonSchema ? reply.json({ choice: /score 0\.[0-4]/.test(req.user) ? 'bad' : 'good' }) : reply.text('The score is 0 because it is bad.'))]]),
    });
    try {
      writeFileSync(
        path('judged.yaml'),
        [
          `judge: { baseURL: ${JSON.stringify(stub.baseURL)}, apiKey: sk-calibrate-test-0123456789, model: stub-judge-model }`,
          'scorers:',
          '  good: { type: judge, prompt: "Is this answer good? {{output}}", choices: { good: 1, bad: 0 } }',
          '',
        ].join('\n'),
      );
      const r = await runCli(['calibrate', '-c', path('judged.yaml'), '--labels', path('labels.jsonl'), '--format', 'json', path('traces.json')]);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as CalibrationReport;
      expect(report.scorers.map((x) => [x.name, x.kind, x.scored])).toEqual([['good', 'judge', 8]]);
      expect(report.scorers[0]?.confusion).toEqual({ tp: 3, fp: 1, fn: 1, tn: 3 });
      expect(stub.requests.length).toBeGreaterThanOrEqual(8);
    } finally {
      await stub.close();
    }
  }, 60_000);

  it('names the file, line and field of a bad label, and refuses runs without any label', async () => {
    writeFileSync(path('bad.jsonl'), `{"traceId":"${traceIds[0] ?? ''}","label":"pass"}\n{"traceId":"${traceIds[1] ?? ''}","label":"maybe"}\n`);
    const bad = await runCli(['calibrate', '-c', path('tracejudge.yaml'), '--labels', path('bad.jsonl'), path('traces.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${path('bad.jsonl')}:2: label: must be "pass" or "fail"`);
    writeFileSync(path('plain.yaml'), 'scorers:\n  tone: { type: tone }\n');
    const none = await runCli(['calibrate', '-c', path('plain.yaml'), '--label-attribute', 'nope', path('traces.json')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('none of the 8 runs found has a label');
  }, 60_000);
});
