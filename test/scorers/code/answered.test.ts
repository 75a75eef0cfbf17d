/**
 * Answered: after a tool returned something, a refusal, a stall, an empty or an off-topic answer fails;
 * a real answer passes; without a successful tool the check is not applicable. Each case's expectation is
 * what the answer does with the tool's result.
 */
import { describe, expect, it } from 'vitest';
import { createAnsweredScorer, nonAnswerOf } from '../../../src/scorers/code/answered/index.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { msg } from './helpers.js';

const ORDER = { orderId: 'A-1009', status: 'shipped', carrier: 'DHL' };
const tools = [{ toolName: 'lookupOrder', result: ORDER }];

function run(answer: string, invocations: unknown[], question = 'Where is my order A-1009?') {
  return {
    input: { inputMessages: [msg('user', question)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
    output: [msg('assistant', answer, invocations)],
  };
}
const ok = [{ toolCallId: 'c1', toolName: 'lookupOrder', args: { orderId: 'A-1009' }, state: 'result', result: ORDER }];

describe('answered', () => {
  it('fails a refusal or a claim of no access after the tool succeeded, naming the phrase', async () => {
    for (const answer of ["I'm sorry, but I can't access order information.", "I don't have information about your order.", "I'm unable to help with orders here.", 'As an AI, I cannot look up orders.']) {
      expect(nonAnswerOf(answer, 'Where is my order A-1009?', tools).nonAnswer, answer).toBe('refusal');
    }
    const r = await createAnsweredScorer().run(run("I'm sorry, but I can't access order information.", ok));
    expect(r.score).toBe(0);
    expect(r.reason).toContain('refusal');
    expect(r.reason).toContain('lookupOrder');
  });

  it('passes a real answer, also one that declines a detail but uses the result', () => {
    expect(nonAnswerOf('Your order A-1009 has shipped with DHL.', 'Where is my order A-1009?', tools).nonAnswer).toBeUndefined();
    expect(nonAnswerOf("I can't share the full address, but order A-1009 shipped with DHL.", 'Where is my order A-1009?', tools).nonAnswer).toBeUndefined();
  });

  it('fails empty answers and stalls', () => {
    expect(nonAnswerOf('', 'q', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf('...', 'q', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf('OK.', 'q', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf('Let me check that for you.', 'Where is my order A-1009?', tools).nonAnswer).toBe('stall');
  });

  it('fails an answer that shares no word with the question or the tool result (off-topic)', () => {
    expect(nonAnswerOf('You can change your password from the account settings page.', 'Where is my order A-1009?', tools).nonAnswer).toBe('off-topic');
    // Two content words are too few to call it off-topic.
    expect(nonAnswerOf('Sounds great!', 'Where is my order A-1009?', tools).nonAnswer).toBeUndefined();
  });

  it('accepts "I could not find it" when the tool found nothing', () => {
    const none = [{ toolName: 'lookupOrder', result: { orderId: 'A-9999', found: false } }];
    const r = nonAnswerOf("I couldn't find an order with the number A-9999.", 'Where is A-9999?', none);
    // No substantive result: the check does not apply (the scorer returns not applicable).
    expect(r.tools).toEqual([]);
  });

  it('fails an answer of pleasantries only, and a stall that offers to take a look', () => {
    expect(nonAnswerOf('Of course! Happy to help with that. 😊', 'How many reports do I have?', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf('Sure! Let me take a look at that for you.', 'Where is my order A-1009?', tools).nonAnswer).toBe('stall');
    // A short answer that says something is not a pleasantry.
    expect(nonAnswerOf('Sure! It shipped with DHL.', 'Where is my order A-1009?', tools).nonAnswer).toBeUndefined();
    // Offers of more help are pleasantries too.
    expect(nonAnswerOf("Of course! Let me know if there's anything else I can help you with.", 'Where is my order A-1009?', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf('Sure! Is there anything else I can do for you? Feel free to ask anytime. 😊', 'Where is my order A-1009?', tools).nonAnswer).toBe('empty');
    expect(nonAnswerOf("It shipped with DHL. Let me know if there's anything else I can help you with.", 'Where is my order A-1009?', tools).nonAnswer).toBeUndefined();
  });

  it('fails an answer about the place asked about but not the question: it shares only the question\'s names', () => {
    const weather = [{ toolName: 'getForecast', result: { city: 'Denver', day: '2026-01-14', condition: 'snow showers', high_f: 49 } }];
    const q = "What's the weather in Denver tomorrow?";
    const sights = 'Denver is a fantastic city to visit! Be sure to check out Red Rocks Amphitheatre, the Denver Art Museum and a stroll down Larimer Square.';
    expect(nonAnswerOf(sights, q, weather).nonAnswer).toBe('off-topic');
    // The real answer shares the tool's words (snow, 49) even when it names the city too.
    expect(nonAnswerOf('Tomorrow Denver gets snow showers with a high of 49°F, so bring a warm coat and good boots for the walk.', q, weather).nonAnswer).toBeUndefined();
  });

  it('treats a search that found nothing as no result: "I couldn\'t find" is then the truth, not a refusal', async () => {
    const nothing = [{ toolCallId: 'c1', toolName: 'searchOrders', args: {}, state: 'result', result: { total: 0, orders: [] } }];
    const found = await createAnsweredScorer().run(run("I couldn't find any order under jamie@example.com.", nothing, 'Orders for jamie@example.com?'));
    expect(found.notScorable?.reason).toBe('no-successful-tool');
    // One record found is a result: not finding it is then a refusal.
    const one = [{ toolCallId: 'c1', toolName: 'searchOrders', args: {}, state: 'result', result: { total: 1, orders: [{ id: 'SW-1' }] } }];
    expect((await createAnsweredScorer().run(run("I couldn't find any order.", one, 'Orders?'))).score).toBe(0);
  });

  it('is not applicable without a successful tool or document (no-successful-tool)', async () => {
    const chat = await createAnsweredScorer().run(run('Hello! How can I help?', [], 'Hi'));
    expect(chat.notScorable).toEqual({ step: 'preprocess', reason: 'no-successful-tool' });
    const failed = await createAnsweredScorer().run(run('Sorry, I could not look it up.', [{ toolCallId: 'c1', toolName: 'lookupOrder', args: {}, state: 'output-error', errorText: 'timeout' }]));
    expect(failed.notScorable?.reason).toBe('no-successful-tool');
    const empty = await createAnsweredScorer().run(run('I can not find it.', [{ toolCallId: 'c1', toolName: 'lookupOrder', args: {}, state: 'result', result: [] }]));
    expect(empty.notScorable?.reason).toBe('no-successful-tool');
  });

  it('is registered as a code type without options', async () => {
    const s = await createScorerRegistry().build('answered', { type: 'answered' });
    expect([s.kind, s.direction, s.threshold]).toEqual(['code', 'higher', 0.5]);
    await expect(createScorerRegistry().build('a', { type: 'answered', strict: true })).rejects.toThrow(/scorers\.a\.strict: unknown option/);
  });
});
