/**
 * Skipped runs said everywhere (issue 31, part 4): the pipeline tells its observers which evaluations of a
 * run did not apply and why; SkippedRuns counts them by reason with the fix per convention (the hints of
 * `extract --explain`); the serve warn line is throttled; the demo's final summary shows them.
 */
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { renderDemoSummary } from '../../src/demo/summary.js';
import { contentCaptureHint } from '../../src/extract/empty-runs.js';
import { Tally } from '../../src/live/tally.js';
import { createPipeline, type ScoredRun } from '../../src/pipeline/pipeline.js';
import { SkippedRunLog, SkippedRuns } from '../../src/pipeline/skipped-runs.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { createTestTelemetry } from '../../src/testing/test-telemetry.js';
import type { Trace } from '../../src/model/span.js';
import { fixtureTrace, MemoryEmitter } from './helpers.js';

/** The fixture as an instrumentation with content capture off sends it (as in not-applicable.test.ts). */
function withoutContent(name: string): Trace {
  const full = fixtureTrace(name);
  const content = /message|prompt|response\.text|response\.object|input\.value|output\.value|content|completion|result|args/i;
  return { ...full, spans: full.spans.map((sp) => ({ ...sp, attributes: Object.fromEntries(Object.entries(sp.attributes).filter(([k]) => !content.test(k))) })) };
}

/** Scores a trace with the embedded default code scorers and returns what the observers saw. */
async function scored(trace: Trace): Promise<ScoredRun[]> {
  const scorers = await createScorerRegistry().buildAll({
    grounding: { type: 'claim-grounding', threshold: 0.5 },
    answered: { type: 'answered', threshold: 0.5 },
    'tool-errors': { type: 'no-tool-errors', threshold: 0.5 },
  });
  const seen: ScoredRun[] = [];
  const pipeline = createPipeline({
    scorers,
    emitter: new MemoryEmitter(),
    source: 'file',
    judgeConcurrency: 1,
    maxQueuedJudgeEvaluations: 10,
    settings: createTestTelemetry().settings,
    observers: [{ runScored: (r) => seen.push(r) }],
  });
  await pipeline.handleTrace(trace);
  return seen;
}

function captureLogger(): { logger: Logger; lines: { obj: Record<string, unknown>; msg: string }[] } {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = { warn: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } as unknown as Logger;
  return { logger, lines };
}

describe('skipped runs', () => {
  it('the pipeline hands each run its skipped evaluations with their reasons; a run with content has none', async () => {
    const [empty] = await scored(withoutContent('aisdk6-two-tools'));
    expect(empty?.records).toEqual([]);
    expect(empty?.skipped?.map((s) => s.reason).sort()).toEqual(['no-input', 'no-output', 'no-output']);
    const [full] = await scored(fixtureTrace('aisdk6-two-tools'));
    expect(full?.records.length).toBe(3);
    expect(full?.skipped ?? []).toEqual([]);
  });

  it('SkippedRuns counts runs and evaluations per reason and gives the content-capture fix of the convention seen', async () => {
    const tally = new SkippedRuns();
    for (const r of [...(await scored(withoutContent('aisdk6-two-tools'))), ...(await scored(withoutContent('aisdk6-contradiction'))), ...(await scored(fixtureTrace('aisdk6-two-tools')))]) tally.runScored(r);
    expect(tally.runs).toBe(2);
    expect(tally.evaluations).toBe(6);
    expect(tally.byReason.get('no-output')).toEqual({ runs: 2, evaluations: 4 });
    expect(tally.byReason.get('no-input')).toEqual({ runs: 2, evaluations: 2 });
    expect([...tally.contentConventions]).toEqual([['aisdk', 2]]);
    const lines = tally.summaryLines();
    expect(lines[0]).toBe('skipped: 2 run(s), 6 evaluation(s) not applicable: no-input 2 run(s) / 2 evaluation(s), no-output 2 run(s) / 4 evaluation(s)');
    expect(lines).toContain(`  aisdk: ${contentCaptureHint('aisdk')}`);
    expect(contentCaptureHint('aisdk')).toMatch(/recordInputs/);
    expect(new SkippedRuns().summaryLines()).toEqual([]);
  });

  it('a scorer own "not scorable" reason is counted as not-scorable, with no content hint', () => {
    const tally = new SkippedRuns();
    const run = { context: { run: { convention: 'genai' } }, records: [], decisions: [], skipped: [{ scorer: 'grounding', reason: 'nothing to ground against' }] } as unknown as ScoredRun;
    tally.runScored(run);
    expect([...tally.byReason]).toEqual([['not-scorable', { runs: 1, evaluations: 1 }]]);
    expect(tally.hints()).toEqual([]);
  });

  it('the serve warn line: at once for the first skipped run, then at most once per interval with the runs since the last line', async () => {
    const [run] = await scored(withoutContent('aisdk6-two-tools'));
    if (!run) throw new Error('no run');
    let t = 1_000_000;
    const { logger, lines } = captureLogger();
    const log = new SkippedRunLog({ logger, intervalMs: 60_000, now: () => t });
    log.runScored(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.obj).toMatchObject({ runs: 1, evaluations: 3, reasons: { 'no-output': 1, 'no-input': 1 }, conventions: ['aisdk'] });
    expect(lines[0]?.msg).toContain('runs skipped: 1 run(s)');
    expect(lines[0]?.msg).toContain(contentCaptureHint('aisdk'));
    t += 10_000;
    log.runScored(run);
    log.runScored({ ...run, skipped: [] });
    t += 10_000;
    log.runScored(run);
    expect(lines).toHaveLength(1);
    t += 50_000;
    log.runScored(run);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.obj).toMatchObject({ runs: 3, evaluations: 9, windowSeconds: 60 });
    expect(lines[1]?.msg).toContain('runs skipped: 3 run(s) in the last 60 s');
  });

  it('the demo shows the skipped count while running and the fix in its final summary', async () => {
    const skipped = new SkippedRuns();
    for (const r of await scored(withoutContent('aisdk6-two-tools'))) skipped.runScored(r);
    const view = { elapsedS: 5, sent: 1, otlpHttp: 'http://127.0.0.1:4318', agents: ['support-agent'], scorers: ['grounding'], tally: new Tally(), skipped };
    const running = renderDemoSummary({ ...view, phase: 'running' }, 400);
    expect(running).toContain('skipped: 1 run(s), 3 evaluation(s) not applicable');
    expect(running).not.toContain(contentCaptureHint('aisdk'));
    const final = renderDemoSummary({ ...view, phase: 'final' }, 400);
    expect(final).toContain('skipped: 1 run(s), 3 evaluation(s) not applicable');
    expect(final).toContain(`aisdk: ${contentCaptureHint('aisdk')}`);
    expect(renderDemoSummary({ ...view, skipped: new SkippedRuns(), phase: 'final' }, 400)).not.toContain('skipped:');
  });
});
