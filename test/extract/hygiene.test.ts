/** Content hygiene: byte caps with a visible marker, and redaction before anything leaves for a judge. */
import { describe, expect, it } from 'vitest';
import { extractSection } from '../../src/config/sections/extract.js';
import { capRun, capText, redactRun } from '../../src/extract/hygiene.js';
import type { AgentRun } from '../../src/model/agent-run.js';
import { runsOf } from './fixture-io.js';

describe('capText', () => {
  it('keeps short text and cuts long text at a character boundary with the removed byte count', () => {
    expect(capText('short', 10)).toBe('short');
    expect(capText('abcdefghij', 4)).toBe('abcd…[truncated 6 bytes]');
    // 'é' is 2 bytes: a cut at 3 bytes must not split it.
    expect(capText('aéé', 4)).toBe('aé…[truncated 2 bytes]');
  });
});

describe('caps in extraction', () => {
  it('cuts texts and structured tool results to maxTextBytes and notes it', () => {
    const [run] = runsOf('aisdk6-rag', { maxTextBytes: 40 });
    const cut = 'Can I get a refund for something I bough…[truncated 12 bytes]';
    expect(run?.input.inputMessages[0]?.content.content).toBe(cut);
    expect(run?.input.inputMessages[0]?.content.parts).toEqual([{ type: 'text', text: cut }]);
    const result = run?.toolResults[0]?.result;
    expect(typeof result).toBe('string');
    expect(result as string).toMatch(/^\[\{"id":"kb-17".*…\[truncated \d+ bytes\]$/);
    expect(run?.notes?.some((n) => n.includes('truncated to 40 bytes'))).toBe(true);
  });

  it('copies nothing when nothing is over the cap, and only what it cuts otherwise', () => {
    const [whole] = runsOf('aisdk6-rag');
    if (!whole) throw new Error('fixture aisdk6-rag has no run');
    expect(capRun(whole, 1 << 20)).toBe(whole);
    const cut = capRun(whole, 40);
    expect(cut).not.toBe(whole);
    expect(cut.input.inputMessages[0]).not.toBe(whole.input.inputMessages[0]);
    // Untouched by the cut: the original objects, unchanged.
    expect(JSON.stringify(capRun(whole, 1 << 20))).toBe(JSON.stringify(whole));
    expect(whole.input.inputMessages[0]?.content.content).not.toContain('[truncated');
    // A cut invocation is one object in the message's parts and in its legacy toolInvocations list.
    const msg = cut.output[0];
    const part = msg?.content.parts.find((p) => p.type === 'tool-invocation');
    const fromParts = part?.type === 'tool-invocation' ? part.toolInvocation : undefined;
    expect(fromParts).toBeDefined();
    expect(msg?.content.toolInvocations?.[0]).toBe(fromParts);
  });
});

describe('caps on structured tool results', () => {
  const runWith = (result: unknown): AgentRun => ({
    traceId: 't',
    spanId: 's',
    agentName: 'a',
    convention: 'genai',
    input: { inputMessages: [], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
    output: [],
    toolResults: [{ toolName: 'x', toolCallId: 'c', args: {}, result }],
    context: [],
    status: 'ok',
    startTime: '1970-01-01T00:00:00.000000000Z',
    endTime: '1970-01-01T00:00:00.000000000Z',
  });
  const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

  it('decides by the exact JSON size, escapes and multi-byte characters included', () => {
    // Control characters serialise as \u00XX (6 bytes each), '€' as 3 bytes, a lone surrogate as \udXXX:
    // values whose length in characters is far under the cap can still be over it.
    for (const result of [{ a: '\u0001'.repeat(10) }, ['€€€€€€€€', 1.5e-300, null, true], { k: '\ud800\udfff'.repeat(3), n: { m: [] } }]) {
      const exact = bytes(result);
      const kept = capRun(runWith(result), exact).toolResults[0]?.result;
      expect(kept).toBe(result);
      const cut = capRun(runWith(result), exact - 1).toolResults[0]?.result;
      expect(typeof cut).toBe('string');
      expect(cut as string).toMatch(/…\[truncated \d+ bytes\]$/);
    }
  });

  it('measures values that are not plain JSON (bigints, bytes) through their JSON-safe form', () => {
    const result = { big: 2n ** 70n, raw: new Uint8Array([1, 2, 3]) };
    const plainBytes = bytes({ big: (2n ** 70n).toString(), raw: Buffer.from([1, 2, 3]).toString('base64') });
    expect(capRun(runWith(result), plainBytes).toolResults[0]?.result).toBe(result);
    expect(typeof capRun(runWith(result), plainBytes - 1).toolResults[0]?.result).toBe('string');
  });
});

describe('redaction', () => {
  const rules = extractSection.parse({
    redact: [
      { pattern: '[\\w.+-]+@[\\w-]+\\.[\\w.]+', replacement: '[email]' },
      { pattern: '\\b(?:\\d[ -]?){13,16}\\b', replacement: '[card]' },
    ],
  }).redact;

  it('replaces e-mail addresses and card numbers everywhere, leaves ids alone, does not mutate the input', () => {
    const [run] = runsOf('handwritten-mapping-two-tools');
    if (!run) throw new Error('no run');
    const before = JSON.stringify(run);
    const red = redactRun({ ...run, groundTruth: { contact: 'ops@acme.io' } }, rules);
    const text = 'Why was I charged twice? My card is [card], mail me at [email]';
    expect(red.input.inputMessages[0]?.content.content).toBe(text);
    expect(red.input.inputMessages[0]?.content.parts).toEqual([{ type: 'text', text }]);
    // Ids, times, formats and part types are not texts: a rule that matches them leaves them alone.
    const wide = redactRun(run, [{ pattern: 'text|tool-invocation|Z$|-out-0|\\d', replacement: '#' }]);
    expect(wide.output[0]?.id).toBe(run.output[0]?.id);
    expect(wide.output[0]?.createdAt).toBe(run.output[0]?.createdAt);
    expect(wide.output[0]?.content.parts.map((p) => p.type)).toEqual(run.output[0]?.content.parts.map((p) => p.type));
    expect(wide.output[0]?.content.format).toBe(2);
    expect(wide.input.inputMessages[0]?.content.content).toContain('#');
    expect(red.groundTruth).toEqual({ contact: '[email]' });
    expect(red.traceId).toBe(run.traceId);
    expect(JSON.stringify(run)).toBe(before);
  });

  it('is applied by extraction when configured', async () => {
    const { IN_HOUSE_MAPPING } = await import('./fixture-io.js');
    const [run] = runsOf('handwritten-mapping-two-tools', { ...IN_HOUSE_MAPPING, redact: rules });
    expect(JSON.stringify(run)).not.toMatch(/jo@example\.com|4111/);
  });

  it('rejects an invalid regex in config with its key path', () => {
    const r = extractSection.safeParse({ redact: [{ pattern: '(' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['redact', 0, 'pattern']);
  });
});
