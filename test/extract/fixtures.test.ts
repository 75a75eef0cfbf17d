/**
 * Every fixture produced by a real library (and the hand-written ones, named `handwritten-*`) extracts
 * exactly as its expected file says, field by field; plus scenario checks written independently of the
 * expected files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractToolResults } from '../../src/extract/helpers.js';
import { messageInvocations, messageText } from '../../src/model/messages.js';
import { expectedPath, fixtureNames, runsOf, type ExpectedFile } from './fixture-io.js';

const names = fixtureNames();

describe('fixtures extract exactly as expected', () => {
  it('finds the fixtures', () => {
    expect(names.length).toBeGreaterThanOrEqual(20);
  });
  for (const name of names) {
    it(name, () => {
      expect(existsSync(expectedPath(name)), `missing ${expectedPath(name)}: generate it and check it by hand`).toBe(true);
      const expected = JSON.parse(readFileSync(expectedPath(name), 'utf8')) as ExpectedFile;
      const runs = runsOf(name);
      expect(runs.length).toBe(expected.runs.length);
      runs.forEach((run, i) => {
        const exp = expected.runs[i];
        // Field by field first, so a failure names the field.
        for (const key of new Set([...Object.keys(run), ...Object.keys(exp ?? {})])) {
          expect((run as unknown as Record<string, unknown>)[key], `${name} run ${i} field ${key}`).toEqual((exp as unknown as Record<string, unknown>)[key]);
        }
        expect(run).toEqual(exp);
        expect(run.toolResults).toEqual(extractToolResults(run.output));
      });
    });
  }
});

const families = ['aisdk6', 'aisdk7-otel', 'openinference', 'openllmetry', 'mastra', 'otel-openai'].filter((f) => names.some((n) => n.startsWith(`${f}-`)));

describe.each(families)('scenarios: %s', (family) => {
  const has = (s: string): boolean => names.includes(`${family}-${s}`);

  it.runIf(has('two-tools'))('two tools: both results, in order, with parsed args', () => {
    const [run] = runsOf(`${family}-two-tools`);
    expect(run?.input.inputMessages.map((m) => [m.role, messageText(m)])).toEqual([['user', 'What is the weather in Paris, in Fahrenheit?']]);
    expect(run?.input.systemMessages[0]?.content).toBe('You are a helpful customer-support agent for Acme. Use tools when needed.');
    expect(run?.toolResults.map((t) => [t.toolName, t.args, t.result])).toEqual([
      ['getWeather', { city: 'Paris' }, { city: 'Paris', temperatureC: 18, condition: 'light rain' }],
      ['convertTemperature', { celsius: 18 }, { fahrenheit: 64.4 }],
    ]);
    expect(messageText(run!.output.at(-1)!)).toBe('It is 18°C (64.4°F) with light rain in Paris right now.');
    expect(run?.usage).toEqual({ inputTokens: 540, outputTokens: 77 });
    expect(run?.status).toBe('ok');
  });

  it.runIf(has('tool-error'))('a throwing tool is an error, not a result', () => {
    const [run] = runsOf(`${family}-tool-error`);
    const inv = run?.output.flatMap((m) => messageInvocations(m));
    expect(inv?.map((i) => [i.toolName, i.state])).toEqual([['lookupOrder', 'output-error']]);
    expect(inv?.[0]?.errorText).toContain('Order database unavailable');
    expect(run?.toolResults).toEqual([]);
    expect(messageText(run!.output.at(-1)!)).toMatch(/^Sorry, I could not look up order A-1001/);
  });

  it.runIf(has('nested-agents'))('nested agents are separate runs; the inner tool is not the parent’s', () => {
    const runs = runsOf(`${family}-nested-agents`);
    expect(runs.map((r) => r.agentName)).toEqual(['support-agent', 'billing-agent']);
    expect(runs[0]?.toolResults.map((t) => t.toolName)).toEqual(['askBillingAgent']);
    expect(runs[0]?.toolResults[0]?.result).toBe('Invoice INV-2025-118 for 129.50 EUR was paid on 2025-12-03.');
    expect(runs[1]?.toolResults.map((t) => t.toolName)).toEqual(['getInvoice']);
    expect(messageText(runs[1]!.input.inputMessages[0]!)).toBe('Has invoice INV-2025-118 been paid?');
    expect(runs[0]?.usage).toEqual({ inputTokens: 380, outputTokens: 56 });
    expect(runs[1]?.usage).toEqual({ inputTokens: 240, outputTokens: 38 });
  });

  it.runIf(has('rag'))('RAG: the knowledge-base result is a tool result', () => {
    const [run] = runsOf(`${family}-rag`);
    expect(run?.toolResults[0]?.toolName).toBe('searchKnowledgeBase');
    expect(Array.isArray(run?.toolResults[0]?.result)).toBe(true);
  });

  it.runIf(has('two-runs-one-trace'))('two independent runs in one trace', () => {
    const runs = runsOf(`${family}-two-runs-one-trace`);
    expect(runs.map((r) => r.agentName)).toEqual(['ticket-classifier', 'support-agent']);
    expect(new Set(runs.map((r) => r.traceId)).size).toBe(1);
    expect(runs[0]?.output.map((m) => [m.role, messageText(m), messageInvocations(m).length])).toEqual([['assistant', 'billing', 0]]);
    expect(runs[1]?.toolResults.map((t) => t.toolName)).toEqual(['getWeather']);
  });
});

describe('Mastra message shape', () => {
  it.each(names)('%s: format-2 messages with ids from the run span and times from the span', (name) => {
    for (const run of runsOf(name)) {
      const messages = [...run.input.inputMessages, ...run.input.rememberedMessages, ...run.output];
      for (const m of messages) {
        expect(m.content.format).toBe(2);
        expect(m.id.startsWith(`${run.spanId}-`)).toBe(true);
        // Text and invocations are said twice, as Mastra does: in the parts and in content / toolInvocations.
        const textParts = m.content.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
        expect(textParts.join('\n')).toBe(m.content.content ?? '');
        const invocationParts = m.content.parts.filter((p) => p.type === 'tool-invocation').map((p) => (p as { toolInvocation: unknown }).toolInvocation);
        expect(invocationParts).toEqual(m.content.toolInvocations ?? []);
      }
      for (const m of run.input.inputMessages) expect([m.role, m.createdAt]).toEqual(['user', run.startTime]);
      run.output.forEach((m, i) => expect([m.id, m.role, m.createdAt]).toEqual([`${run.spanId}-out-${i}`, 'assistant', run.endTime]));
      expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
      expect(run.input.taggedSystemMessages).toEqual({});
      for (const s of run.input.systemMessages) expect(Object.keys(s).sort()).toEqual(['content', 'role']);
    }
  });

  it('gives the same ids on every extraction', () => {
    for (const name of names) expect(runsOf(name).map((r) => r.output.map((m) => m.id))).toEqual(runsOf(name).map((r) => r.output.map((m) => m.id)));
  });
});

describe('retrieved documents', () => {
  it.runIf(names.includes('openinference-rag'))('OpenInference RETRIEVER documents become the run context', () => {
    const [run] = runsOf('openinference-rag');
    expect(run?.context).toEqual(['Refunds are issued within 14 days of purchase for unused items.', 'Return shipping is free for orders above 50 EUR.']);
  });
});
