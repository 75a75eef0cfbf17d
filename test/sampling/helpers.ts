/** Builders and a seeded PRNG for the sampling tests. */
import type { AgentRun } from '../../src/model/agent-run.js';
import { agentInput, assistantMessage } from '../../src/model/messages.js';
import type { Attributes, Span } from '../../src/model/span.js';
import type { SamplingInput } from '../../src/sampling/types.js';
import { seededRandom } from '../seeded-random.js';

export { seededRandom };

/** `n` random 32-hex-character trace ids from `seed`. */
export function traceIds(n: number, seed: number): string[] {
  const rnd = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    for (let j = 0; j < 4; j++) s += Math.floor(rnd() * 2 ** 32).toString(16).padStart(8, '0');
    out.push(s);
  }
  return out;
}

export function makeSpan(over: Partial<Span> = {}): Span {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    parentSpanId: '',
    traceState: '',
    flags: 0x101,
    name: 'invoke_agent support-agent',
    kind: 1,
    startTimeUnixNano: 1_700_000_000_000_000_000n,
    endTimeUnixNano: 1_700_000_002_000_000_000n,
    attributes: {},
    events: [],
    links: [],
    status: { code: 0, message: '' },
    resource: { attributes: {} },
    scope: { name: 'test', version: '', attributes: {} },
    ...over,
  };
}

export function makeRun(over: Partial<AgentRun> = {}): AgentRun {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    agentName: 'support-agent',
    convention: 'genai',
    input: agentInput('hi'),
    output: [assistantMessage('hello')],
    toolResults: [],
    context: [],
    status: 'ok',
    startTime: '2023-11-14T22:13:20.000Z',
    endTime: '2023-11-14T22:13:22.000Z',
    ...over,
  };
}

export interface InputOptions {
  run?: Partial<AgentRun>;
  span?: Partial<Span>;
  children?: Partial<Span>[];
  resource?: Attributes;
  scorer?: string;
  scorerKind?: 'code' | 'judge';
  codeScores?: Record<string, number>;
  codeUnverified?: Record<string, number>;
}

/** A sampling input: one agent span plus optional child spans, with matching ids. */
export function makeInput(o: InputOptions = {}): SamplingInput {
  const run = makeRun(o.run);
  const agent = makeSpan({ traceId: run.traceId, spanId: run.spanId, ...o.span });
  const children = (o.children ?? []).map((c, i) =>
    makeSpan({ traceId: run.traceId, spanId: `c${String(i).padStart(15, '0')}`, parentSpanId: run.spanId, name: 'child', ...c }),
  );
  const input: SamplingInput = {
    run,
    spans: [agent, ...children],
    resourceAttributes: o.resource ?? {},
    scorer: o.scorer ?? 'hallucination',
  };
  if (o.scorerKind) input.scorerKind = o.scorerKind;
  if (o.codeScores) input.codeScores = o.codeScores;
  if (o.codeUnverified) input.codeUnverified = o.codeUnverified;
  return input;
}
