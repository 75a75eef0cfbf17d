/** Fast paths of extraction that the fixtures do not reach: walks without seen-sets, index parsing, lazy values. */
import { describe, expect, it } from 'vitest';
import { Deferred } from '../../src/extract/conventions/lazy.js';
import { extractToolResults, toolResultsOf } from '../../src/extract/helpers.js';
import { buildSpanTree, descendants, type SpanTree } from '../../src/extract/tree.js';
import { unflatten } from '../../src/extract/values.js';
import { assistantMessage } from '../../src/model/messages.js';
import type { ToolInvocation } from '../../src/model/agent-run.js';
import type { Span } from '../../src/model/span.js';

const T = '0af7651916cd43dd8448eb211c80319c';
function span(id: string, parent: string, name: string, start: number): Span {
  return {
    traceId: T, spanId: id.padStart(16, '0'), parentSpanId: parent ? parent.padStart(16, '0') : '', traceState: '', flags: 1, name, kind: 1,
    startTimeUnixNano: BigInt(start), endTimeUnixNano: BigInt(start + 10), attributes: {}, events: [], links: [], status: { code: 0, message: '' },
    resource: { attributes: {} }, scope: { name: 's', version: '', attributes: {} },
  };
}
const id = (n: string): string => n.padStart(16, '0');

describe('cycle check', () => {
  it('with two roots, a top-level orphan is reached and no cycle is reported', () => {
    const tree = buildSpanTree(T, [span('1', '', 'r1', 0), span('2', '', 'r2', 1), span('3', 'ff', 'orphan', 2), span('4', '3', 'under-orphan', 3)]);
    expect(tree.roots.map((s) => s.name)).toEqual(['r1', 'r2', 'orphan']);
    expect(tree.notes.some((n) => n.includes('parent cycle'))).toBe(false);
    expect(descendants(tree, tree.roots[2] as Span).map((s) => s.name)).toEqual(['under-orphan']);
  });

  it('with two roots, a cycle is still detached to the top level', () => {
    const tree = buildSpanTree(T, [span('1', '', 'r1', 0), span('2', '', 'r2', 1), span('5', '6', 'c1', 2), span('6', '5', 'c2', 3)]);
    expect(tree.notes.filter((n) => n.includes('parent cycle'))).toHaveLength(1);
    expect(tree.roots.map((s) => s.name)).toEqual(['r1', 'r2', 'c1']);
    expect(descendants(tree, tree.roots[2] as Span).map((s) => s.name)).toEqual(['c2']);
  });
});

describe('descendants', () => {
  it('walks a tree that is not a forest (children lists with a cycle) once per span, and ends', () => {
    const spans = [span('1', '', 'root', 0), span('2', '1', 'a', 1), span('3', '2', 'b', 2)];
    const real = buildSpanTree(T, spans);
    const [root, a, b] = spans as [Span, Span, Span];
    const lists = new Map<string, Span[]>([
      [id('1'), [a]],
      [id('2'), [b]],
      [id('3'), [a, root]],
    ]);
    const odd: SpanTree = { ...real, children: (spanId) => lists.get(spanId) ?? [] };
    expect(descendants(odd, root).map((s) => s.name)).toEqual(['a', 'b']);
    expect(descendants(real, root).map((s) => s.name)).toEqual(['a', 'b']);
    expect(descendants(real, root, (s) => s.name === 'b').map((s) => s.name)).toEqual(['a']);
  });
});

describe('unflatten', () => {
  it('reads 1 to 6 digit indices up to the next dot, and skips every other key of the family', () => {
    const rows = unflatten(
      {
        'm.2.role': 'b',
        'm.0.role': 'a',
        'm.00.text': 'zero again',
        'm.1': 'bare',
        'm.3.': 'trailing dot',
        'm.123456.role': 'six digits',
        'm.1234567.role': 'seven digits',
        'm.1a.role': 'not an index',
        'm.x.role': 'no index',
        'm.': 'empty',
        'mm.0.role': 'other family',
      },
      'm',
    );
    expect(rows).toEqual([{ role: 'a', text: 'zero again' }, { '': 'bare' }, { role: 'b' }, { '': 'trailing dot' }, { role: 'six digits' }]);
  });
});

describe('unflatten and a field named __proto__', () => {
  it('skips it: the row keeps the plain prototype, so no reader sees the value as inherited fields', () => {
    const rows = unflatten({ 'm.0.role': 'a', 'm.0.__proto__': { 'message.tool_calls.0.tool_call.function.name': 'injected' } }, 'm');
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    const seen: string[] = [];
    for (const k in row) seen.push(k);
    expect(seen).toEqual(['role']);
  });
});

describe('Deferred.from', () => {
  it('calls the function with its argument once, on first read; a throw states nothing', () => {
    let calls = 0;
    const d = Deferred.from((n: number) => {
      calls++;
      return [n * 2];
    }, 21);
    expect(calls).toBe(0);
    expect(d.value).toEqual([42]);
    expect(d.value).toBe(d.value);
    expect(calls).toBe(1);
    const bad = Deferred.from((s: string): string[] => {
      throw new Error(s);
    }, 'odd data');
    expect(bad.value).toBeUndefined();
  });
});

describe('toolResultsOf', () => {
  it('gives what extractToolResults reads back from the message built of the same invocations', () => {
    const invocations: ToolInvocation[] = [
      { toolCallId: 'a', toolName: 'search', args: { q: 1 }, state: 'result', result: { hits: 2 }, resultText: 'two hits' },
      { toolCallId: 'b', toolName: 'fail', args: {}, state: 'output-error', errorText: 'boom' },
      { toolCallId: 'c', toolName: 'pending', args: {}, state: 'call' },
      { toolCallId: 'a', toolName: 'search', args: { q: 2 }, state: 'result', result: null },
      { toolCallId: 'd', toolName: 'nothing', args: {}, state: 'result', result: undefined },
    ];
    const message = assistantMessage('done', invocations, { id: 'm' });
    expect(toolResultsOf(invocations)).toEqual(extractToolResults([message]));
    expect(toolResultsOf(invocations).map((r) => r.toolCallId)).toEqual(['a', 'a']);
    expect(toolResultsOf([])).toEqual(extractToolResults([assistantMessage('', [], { id: 'm' })]));
  });
});
