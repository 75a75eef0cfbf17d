/** `score --dataset` lines become runs in Mastra's shape, whatever message form the line uses. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractToolResults } from '../../src/extract/helpers.js';
import { createDatasetSource, readDataset } from '../../src/ingest/files/dataset-source.js';
import type { AgentRun } from '../../src/model/agent-run.js';
import { createKeywordCoverageScorer } from '../../src/scorers/code/keyword-coverage/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tracejudge-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(lines: unknown[]): string {
  const path = join(dir, `d${n++}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
  return path;
}

async function runs(lines: unknown[]): Promise<AgentRun[]> {
  const path = file(lines);
  const out: AgentRun[] = [];
  const source = createDatasetSource({ file: path, items: readDataset(path).items, concurrency: 1, now: () => Date.UTC(2026, 0, 2), score: (c) => Promise.resolve(out.push(...c.map((x) => x.run))) });
  await source.start();
  await source.done;
  return out;
}

const AT = '2026-01-02T00:00:00.000Z';
const inv = { toolCallId: 'c1', toolName: 'lookup', args: { id: 7 }, state: 'result' as const, result: { status: 'shipped' } };

describe('dataset lines as runs', () => {
  it('a string input and output are a user and an assistant message', async () => {
    const [run] = await runs([{ input: 'Where is order 7?', output: 'It shipped.' }]);
    expect(run?.input).toEqual({
      inputMessages: [{ id: `${run?.spanId}-in-0`, role: 'user', createdAt: AT, content: { format: 2, parts: [{ type: 'text', text: 'Where is order 7?' }], content: 'Where is order 7?' } }],
      rememberedMessages: [],
      systemMessages: [],
      taggedSystemMessages: {},
    });
    expect(run?.output).toEqual([{ id: `${run?.spanId}-out-0`, role: 'assistant', createdAt: AT, content: { format: 2, parts: [{ type: 'text', text: 'It shipped.' }], content: 'It shipped.' } }]);
  });

  it('converts the earlier tracejudge shape ({ role, content: string }, toolInvocations beside it), scoring the same as plain strings', async () => {
    const [old, plain] = await runs([
      {
        input: { inputMessages: [{ role: 'user', content: 'Where is order 7?' }], systemMessages: [{ role: 'system', content: 'Be brief.' }] },
        output: [{ role: 'assistant', content: 'Order 7 shipped.', toolInvocations: [inv] }],
      },
      { input: 'Where is order 7?', output: 'Order 7 shipped.' },
    ]);
    expect(old?.input.systemMessages).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(old?.output[0]?.content).toEqual({
      format: 2,
      parts: [{ type: 'tool-invocation', toolInvocation: inv }, { type: 'text', text: 'Order 7 shipped.' }],
      content: 'Order 7 shipped.',
      toolInvocations: [inv],
    });
    expect(extractToolResults(old?.output)).toEqual([{ toolName: 'lookup', toolCallId: 'c1', args: { id: 7 }, result: { status: 'shipped' } }]);
    const scorer = createKeywordCoverageScorer();
    const score = async (r: AgentRun | undefined) => (await scorer.run({ input: r?.input, output: r?.output })).score;
    expect(await score(old)).toBe(await score(plain));
  });

  it('keeps a Mastra format-2 message as written, filling in a missing createdAt', async () => {
    const m = { id: 'u-1', role: 'user', content: { format: 2, parts: [{ type: 'text', text: 'hi' }], metadata: { source: 'web' } } };
    const [run] = await runs([{ input: { inputMessages: [m], rememberedMessages: [{ ...m, id: 'u-0', createdAt: '2025-12-31T00:00:00.000Z' }] }, output: 'hello' }]);
    expect(run?.input.inputMessages).toEqual([{ ...m, createdAt: AT }]);
    expect(run?.input.rememberedMessages[0]?.createdAt).toBe('2025-12-31T00:00:00.000Z');
  });

  it('refuses a tool message and a malformed invocation list, naming the line and the place', () => {
    const tool = file([{ input: 'q', output: 'a' }, { input: 'q', output: [{ role: 'assistant', content: 'a' }, { role: 'tool', content: '{}' }] }]);
    expect(() => readDataset(tool)).toThrow(`${tool}:2: output[1]: role "tool" is not a run message role`);
    const bad = file([{ input: { inputMessages: [{ role: 'user', content: 'q', toolInvocations: 'x' }] }, output: 'a' }]);
    expect(() => readDataset(bad)).toThrow(`${bad}:1: input.inputMessages[0].toolInvocations: expected a list of tool invocations`);
  });
});
