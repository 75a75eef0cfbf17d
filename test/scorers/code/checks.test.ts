import { describe, expect, it } from 'vitest';
import {
  calledTool,
  didNotCall,
  equals,
  excludes,
  includes,
  matches,
  maxToolCalls,
  noToolErrors,
  similarity,
  toolOrder,
  usedNoTools,
} from '../../../src/scorers/checks/index.js';
import { createToolErrorsScorer } from '../../../src/scorers/checks/tool-checks.js';
import { msg } from './helpers.js';

const said = (text: string) => ({ input: { inputMessages: [msg('user', 'q')] }, output: [msg('assistant', text)] });
const called = (tools: string[], extra: Record<string, unknown> = {}) => ({
  input: { inputMessages: [msg('user', 'q')] },
  output: [msg('assistant', '', tools.map((toolName, i) => ({ toolCallId: `c${i}`, toolName, state: 'result', result: {}, ...extra })))],
});

describe('quick checks (§7)', () => {
  it('text checks, vectors', async () => {
    expect((await includes('sunny').run(said('It is Sunny today'))).score).toBe(1);
    expect((await includes('sunny', { ignoreCase: false }).run(said('It is Sunny today'))).score).toBe(0);
    expect((await excludes('error').run(said('An Error occurred'))).score).toBe(0);
    expect((await equals('Hello, world!').run(said('hello, WORLD!'))).score).toBe(1);
    expect((await matches(/\d{1,3}°[FC]/).run(said('It is 72°F'))).score).toBe(1);
    expect((await matches(/\d{1,3}°[FC]/, { exact: true }).run(said('It is 72°F'))).score).toBe(0);
    expect((await similarity('Sunny, 72°F').run(said('sunny 72°F'))).score).toBe(0.8235294117647058);
    expect((await similarity('Sunny, 72°F', { threshold: 0.9 }).run(said('sunny 72°F'))).score).toBe(0);
  });
  it('text checks read only assistant messages', async () => {
    const run = { output: [msg('user', 'sunny'), msg('assistant', 'rain')] };
    expect((await includes('sunny').run(run)).score).toBe(0);
  });
  it('tool checks, vectors', async () => {
    expect((await calledTool('search', { times: 2 }).run(called(['search', 'search']))).score).toBe(1);
    expect((await calledTool('search', { times: 3 }).run(called(['search', 'search']))).score).toBe(0);
    expect((await toolOrder(['search', 'summarize']).run(called(['search', 'x', 'summarize']))).score).toBe(1);
    expect((await toolOrder(['summarize', 'search']).run(called(['search', 'x', 'summarize']))).score).toBe(0);
    expect((await maxToolCalls(1).run(called(['a', 'b']))).score).toBe(0);
    expect((await didNotCall('refund').run(called(['orders']))).score).toBe(1);
    expect((await usedNoTools().run(called([]))).score).toBe(1);
    expect((await usedNoTools().run(called(['a']))).score).toBe(0);
  });
  it('noToolErrors', async () => {
    expect((await noToolErrors().run(called(['a']))).score).toBe(1);
    expect((await noToolErrors().run(called(['a'], { state: 'output-error', errorText: 'boom' }))).score).toBe(0);
    expect((await noToolErrors().run(called(['a'], { isError: true }))).score).toBe(0);
    expect((await noToolErrors().run(called(['a'], { result: { error: 'nope' } }))).score).toBe(0);
    expect((await noToolErrors().run(called(['a'], { state: 'call' }))).score).toBe(0);
  });

  it('the no-tool-errors type fails only calls the trace marks failed: a business error field is data', async () => {
    const s = createToolErrorsScorer();
    expect((await s.run(called(['a']))).score).toBe(1);
    expect((await s.run(called(['a'], { state: 'output-error', errorText: 'boom' }))).score).toBe(0);
    expect((await s.run(called(['a'], { isError: true }))).score).toBe(0);
    expect((await s.run(called(['a'], { state: 'call' }))).score).toBe(0);
    expect((await s.run(called(['a'], { result: { isError: true, content: 'quota exceeded' } }))).score).toBe(0);
    expect((await s.run(called(['a'], { result: { status: 'error', message: 'upstream 502' } }))).score).toBe(0);
    expect((await s.run(called(['a'], { result: { error: 'claim not found', claim_id: 'CLM-77812' } }))).score).toBe(1);
  });

  it('the no-tool-errors type names every failed tool and its error text', async () => {
    const run = {
      input: { inputMessages: [msg('user', 'q')] },
      output: [
        msg('assistant', 'Sorry, the order service is down.', [
          { toolCallId: 'c1', toolName: 'lookupOrder', state: 'output-error', errorText: 'Order database unavailable (timeout after 5000 ms)' },
          { toolCallId: 'c2', toolName: 'getRefund', state: 'result', result: { status: 'error', message: 'upstream 502' } },
          { toolCallId: 'c3', toolName: 'getClaim', state: 'result', result: { error: 'claim not found' } },
        ]),
      ],
    };
    const r = await createToolErrorsScorer().run(run, { reason: 'on-fail' } as never);
    expect(r.score).toBe(0);
    expect(r.reason).toBe('2 tool call(s) failed: lookupOrder: Order database unavailable (timeout after 5000 ms); getRefund: upstream 502.');
  });
});
