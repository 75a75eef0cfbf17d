/** The span tree and `explain`: orphans, cycles, ordering, and reasons when no run is found. */
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/extract/explain.js';
import { explainTrace, extractAgentRunContexts } from '../../src/api/extract.js';
import { buildSpanTree } from '../../src/extract/tree.js';
import type { Span } from '../../src/model/span.js';
import { extractFixture } from './fixture-io.js';

const T = '0af7651916cd43dd8448eb211c80319c';
function span(id: string, parent: string, name: string, start: number, end = start + 10, attributes: Span['attributes'] = {}): Span {
  return {
    traceId: T, spanId: id.padStart(16, '0'), parentSpanId: parent ? parent.padStart(16, '0') : '', traceState: '', flags: 1, name, kind: 1,
    startTimeUnixNano: BigInt(start), endTimeUnixNano: BigInt(end), attributes, events: [], links: [], status: { code: 0, message: '' },
    resource: { attributes: { 'service.name': 'svc' } }, scope: { name: 's', version: '', attributes: {} },
  };
}

describe('span tree', () => {
  it('orders children by start then end, adopts orphans under the single root, and breaks cycles', () => {
    const spans = [span('1', '', 'root', 0, 100), span('3', '1', 'b', 5, 9), span('2', '1', 'a', 5, 7), span('4', 'ff', 'orphan', 6), span('5', '6', 'c1', 1), span('6', '5', 'c2', 2)];
    const tree = buildSpanTree(T, spans);
    expect(tree.children('0000000000000001').map((s) => s.name)).toEqual(['a', 'b', 'orphan']);
    expect(tree.parent(spans[3] as Span)?.name).toBe('root');
    expect(tree.notes.some((n) => n.includes('`orphan`') && n.includes('not received'))).toBe(true);
    expect(tree.notes.some((n) => n.includes('parent cycle'))).toBe(true);
    expect(tree.roots.map((s) => s.name)).toContain('root');
  });

  it('joins log records to their span by trace and span id', () => {
    const chat = span('2', '', 'chat gpt-4o', 0, 10, { 'gen_ai.operation.name': 'chat' });
    const log = { timeUnixNano: 5n, observedTimeUnixNano: 5n, severityNumber: 9, severityText: '', eventName: 'gen_ai.choice', body: { message: { content: 'hello' } }, attributes: {}, traceId: T, spanId: chat.spanId, flags: 0, resource: chat.resource, scope: chat.scope };
    const tree = buildSpanTree(T, [chat], [log, { ...log, spanId: 'ffffffffffffffff' }]);
    expect(tree.eventsOf(chat.spanId).map((e) => e.origin)).toEqual(['log']);
    expect(tree.unjoinedLogs).toHaveLength(1);
    const [ctx] = extractAgentRunContexts({ spans: [chat], logs: [log] });
    expect(ctx?.run.output[0]?.content.content).toBe('hello');
    expect(ctx?.spans.map((s) => s.spanId)).toEqual([chat.spanId]);
  });
});

describe('explain', () => {
  it('says why a chat span without content gave no run', () => {
    const [e] = extractFixture('handwritten-genai-no-content-no-run').map((t) => t.explanation);
    expect(e?.runs).toEqual([]);
    expect(e?.reasons).toEqual(['span `e000…` `chat gpt-4o` has no agent parent and no `gen_ai.output.messages`']);
    expect(explainText(e!)).toContain('no run: span `e000…` `chat gpt-4o` has no agent parent');
  });

  it('names the spans when no convention matched', () => {
    const [e] = explainTrace([span('1', '', 'GET /api', 0), span('2', '1', 'db.query', 1)]);
    expect(e?.conventions).toEqual([]);
    expect(e?.reasons[0]).toMatch(/no span carries a known convention marker .*`GET \/api`, `db.query`/);
  });

  it('lists conventions, runs and spans for a real fixture', () => {
    const [e] = extractFixture('aisdk6-nested-agents').map((t) => t.explanation);
    expect(e?.runs.map((r) => [r.agentName, r.kind, r.convention])).toEqual([
      ['support-agent', 'agent', 'aisdk'],
      ['billing-agent', 'agent', 'aisdk'],
    ]);
    expect(e?.conventions.find((c) => c.convention === 'aisdk')?.spans).toBe(8);
    expect(e?.spans.filter((s) => s.role === 'tool').map((s) => s.name)).toEqual(['ai.toolCall', 'ai.toolCall']);
    expect(e?.reasons).toEqual([]);
  });

  it('an empty input explains nothing and extracts nothing', () => {
    expect(explainTrace([])).toEqual([]);
    expect(extractAgentRunContexts({ resourceSpans: [] })).toEqual([]);
  });
});
