/**
 * Mastra's own helpers read tracejudge's runs: `@mastra/evals`' exported run helpers, pinned in bench/reference
 * and run under the Node 22 they need, called on the extracted runs of every trace fixture. What they must
 * find comes from the fixtures' scenarios (./fixture-intents.ts), not from the extractor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractAgentRuns } from '../../src/api/extract.js';
import type { AgentRun } from '../../src/model/agent-run.js';
import { fixtureNames, runsOf } from '../extract/fixture-io.js';
import { HISTORY_ANSWER, historySpans } from '../extract/history-trace.js';
import { FIXTURE_INTENTS } from './fixture-intents.js';
import { referenceUnsupported, runReference, scriptPath } from './reference.js';

/** What test/mastra/scripts/helpers-on-runs.mjs returns per run (`undefined` comes back as `null`). */
interface HelperResults {
  isScorerRunInputForAgent: boolean;
  isScorerRunOutputForAgent: boolean;
  extractToolResults: Array<{ toolName: string; toolCallId: string; args: unknown; result: unknown }>;
  extractToolCalls: { tools: string[]; toolCallInfos: Array<{ toolName: string; toolCallId: string; messageIndex: number; invocationIndex: number }> };
  getAssistantMessageFromRunOutput: string | null;
  getUserMessageFromRunInput: string | null;
  getSystemMessagesFromRunInput: string[];
  getTextContentFromMastraDBMessage: string[];
  extractInputMessages: string[];
  extractAgentResponseMessages: string[];
  getConversationHistoryFromRunInput: string | null;
}

const names = fixtureNames();
const fixtureRuns = new Map(names.map((n) => [n, runsOf(n)]));
const [historyRun] = extractAgentRuns(historySpans());
/** Every run sent to the reference: the fixtures' runs, the history run, and the history run's remembered messages as an output. */
const sent: Array<{ key: string; input: AgentRun['input']; output: unknown[] }> = [
  ...names.flatMap((n) => (fixtureRuns.get(n) ?? []).map((r, i) => ({ key: `${n}#${i}`, input: r.input, output: r.output }))),
  ...(historyRun ? [{ key: 'history', input: historyRun.input, output: historyRun.output }, { key: 'history-remembered', input: historyRun.input, output: historyRun.input.rememberedMessages }] : []),
];

const unsupported = referenceUnsupported();

describe.skipIf(unsupported !== undefined)(`@mastra/evals helpers on extracted runs${unsupported ? ` (skipped: ${unsupported})` : ''}`, () => {
  let results = new Map<string, HelperResults>();
  beforeAll(async () => {
    const out = await runReference<HelperResults[]>(scriptPath('helpers-on-runs.mjs'), sent.map(({ input, output }) => ({ input, output })));
    results = new Map(sent.map((s, i) => [s.key, out[i] as HelperResults]));
  }, 600_000);

  it('has a scenario for every fixture', () => {
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names.filter((n) => FIXTURE_INTENTS[n] === undefined)).toEqual([]);
  });

  describe.each(names)('%s', (name) => {
    const intents = FIXTURE_INTENTS[name] ?? [];

    it('has the scenario’s runs', () => {
      expect(fixtureRuns.get(name)?.length).toBe(intents.length);
    });

    intents.forEach((intent, i) => {
      it(`run ${i}: Mastra sees its input, answer and tool results`, () => {
        const r = results.get(`${name}#${i}`);
        expect(r, 'no answer from the reference').toBeDefined();
        if (!r) return;
        expect(r.isScorerRunInputForAgent).toBe(true);
        expect(r.isScorerRunOutputForAgent).toBe(true);
        expect(r.getUserMessageFromRunInput).toBe(intent.user);
        expect(r.extractInputMessages).toEqual([intent.user]);
        expect(r.getSystemMessagesFromRunInput).toEqual(intent.system);
        expect(r.getAssistantMessageFromRunOutput).toBe(intent.answer);
        expect(r.extractAgentResponseMessages).toEqual([intent.answer]);
        expect(r.getTextContentFromMastraDBMessage).toEqual([intent.answer]);
        expect(r.extractToolResults.map((t) => [t.toolName, t.args, t.result])).toEqual(intent.results);
        expect(r.extractToolCalls.tools).toEqual(intent.calls);
        // Every call has an id, and a result carries the id of its call.
        const ids = r.extractToolCalls.toolCallInfos.map((c) => c.toolCallId);
        expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
        for (const t of r.extractToolResults) expect(ids).toContain(t.toolCallId);
        expect(r.getConversationHistoryFromRunInput).toBeNull();
      });
    });
  });

  it('reads remembered turns as Mastra memory: the transcript, and the folded tool results', () => {
    const r = results.get('history');
    expect(r?.isScorerRunInputForAgent).toBe(true);
    expect(r?.getUserMessageFromRunInput).toBe('Can I get a refund?');
    expect(r?.getSystemMessagesFromRunInput).toEqual(['Be brief.']);
    expect(r?.getAssistantMessageFromRunOutput).toBe(HISTORY_ANSWER);
    expect(r?.getConversationHistoryFromRunInput).toBe('user: Where is order 7?\nassistant: Let me check.\nassistant: It shipped.');
    const remembered = results.get('history-remembered');
    expect(remembered?.isScorerRunOutputForAgent).toBe(true);
    expect(remembered?.extractToolCalls.tools).toEqual(['lookupOrder', 'refund', 'unknown']);
    expect(remembered?.extractToolResults.map((t) => [t.toolName, t.toolCallId, t.args, t.result])).toEqual([
      ['lookupOrder', 'c1', { id: 7 }, { status: 'shipped' }],
      ['unknown', 'c9', {}, 'orphan result'],
    ]);
  });
});
