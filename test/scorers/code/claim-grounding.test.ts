/**
 * Claim grounding: each specific of the answer is supported, contradicted, fabricated (a made-up identifier)
 * or unverified; one contradiction or fabrication scores 0, unverified specifics never fail; no tool result,
 * no failed call and no document is not applicable. Expected values come from the scenario (what the tool
 * said vs what the answer says) and the documented formula.
 */
import { describe, expect, it } from 'vitest';
import { createClaimGroundingScorer, checkClaims, claimGroundingReason, claimGroundingScore } from '../../../src/scorers/code/claim-grounding/index.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { LIVE_RUN_KEY } from '../../../src/scorers/llm/shared.js';
import { msg } from './helpers.js';

const ORDER = { orderId: 'A-1009', status: 'shipped', carrier: 'DHL', shippedOn: '2025-12-31', total: 1276.4, currency: 'USD' };
const WEATHER = { city: 'Lisbon', temperatureC: 18, condition: 'light rain', humidity: 81 };

/** A run whose tool returned `result`, answered `answer`, started on 2026-01-01 (a Thursday). */
function run(answer: string, tool: string, result: unknown, question = 'q') {
  return {
    input: { inputMessages: [msg('user', question)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
    output: [msg('assistant', answer, [{ toolCallId: 'c1', toolName: tool, args: {}, state: 'result', result }])],
    requestContext: { [LIVE_RUN_KEY]: { toolResults: [{ toolName: tool, toolCallId: 'c1', args: {}, result }], context: [], startTime: '2026-01-01T10:00:00Z' } },
  };
}

const texts = (items: { text: string }[]): string[] => items.map((i) => i.text).sort();

describe('claim-grounding', () => {
  it('fails the issue\'s hallucination: cancelled/refunded via FedEx when the tool said shipped by DHL', async () => {
    const r = await createClaimGroundingScorer().run(run('Your order A-1009 was cancelled and refunded yesterday via FedEx.', 'lookupOrder', ORDER, 'Where is my order A-1009?'));
    expect(r.score).toBe(0);
    const p = r.preprocessStepResult as ReturnType<typeof checkClaims>;
    expect(texts(p.contradicted)).toEqual(['FedEx', 'cancelled']);
    // "yesterday" is 2025-12-31, the day the order shipped; A-1009 is the tool's order id.
    expect(texts(p.supported)).toEqual(['A-1009', 'yesterday']);
    expect(texts(p.unverified)).toEqual(['refunded']);
    // The reason leads with each contradiction and the tool value beside it.
    expect(r.reason).toMatch(/^Contradicted by the tool results: /);
    expect(r.reason).toContain('"FedEx" vs lookupOrder carrier: "DHL"');
    expect(r.reason).toContain('"cancelled" vs lookupOrder status: "shipped"');
    expect(r.reason).toContain('"refunded"');
  });

  it('passes the issue\'s correct answer to the letter (18°C, light rain, 81%)', async () => {
    const r = await createClaimGroundingScorer().run(run('It is 18°C in Lisbon with light rain and 81% humidity.', 'getWeather', WEATHER));
    expect(r.score).toBe(1);
    expect(texts((r.preprocessStepResult as ReturnType<typeof checkClaims>).supported)).toEqual(['18°C', '81%', 'Lisbon', 'light rain']);
  });

  it('normalises money: $1,276.40 is the tool\'s 1276.4; another amount of the same order contradicts', () => {
    expect(claimGroundingScore(checkClaims('Order A-1009 came to $1,276.40.', [{ toolName: 'lookupOrder', result: ORDER }], []))).toBe(1);
    const wrong = checkClaims('Order A-1009 came to $1,176.40.', [{ toolName: 'lookupOrder', result: ORDER }], []);
    expect(wrong.contradicted.map((i) => [i.text, i.sources[0]?.value])).toEqual([['$1,176.40', '1276.4']]);
  });

  it('compares a duration with the slot of the same unit: 6 months vs warrantyMonths 3', () => {
    const tool = [{ toolName: 'getWarranty', result: { product: 'Kettle K2', warrantyMonths: 3 } }];
    expect(checkClaims('The Kettle K2 warranty lasts 6 months.', tool, []).contradicted.map((i) => i.text)).toEqual(['6 months']);
    expect(claimGroundingScore(checkClaims('The Kettle K2 warranty lasts 3 months.', tool, []))).toBe(1);
    // A unit contradiction: the same number in the wrong unit.
    expect(checkClaims('It is 18°F in Lisbon.', [{ toolName: 'getWeather', result: WEATHER }], []).contradicted.map((i) => i.text)).toEqual(['18°F']);
  });

  it('reads negation: "not available" contradicts available: true; "unavailable" agrees with available: false', () => {
    const inStock = [{ toolName: 'checkStock', result: { product: 'Nimbus Jacket', available: true } }];
    const soldOut = [{ toolName: 'checkStock', result: { product: 'Nimbus Jacket', available: false } }];
    expect(checkClaims('The Nimbus Jacket is not available right now.', inStock, []).contradicted.map((i) => i.reading)).toEqual(['not available']);
    expect(claimGroundingScore(checkClaims('The Nimbus Jacket is unavailable right now.', soldOut, []))).toBe(1);
    expect(claimGroundingScore(checkClaims('The Nimbus Jacket is available.', soldOut, []))).toBe(0);
    // A yes/no slot that is not a known status: the claim names its key words.
    const hotel = [{ toolName: 'getHotel', result: { hotel: 'Hotel Aurora', breakfastIncluded: true } }];
    expect(claimGroundingScore(checkClaims("Breakfast isn't included at Hotel Aurora.", hotel, []))).toBe(0);
    expect(claimGroundingScore(checkClaims('Breakfast is included at Hotel Aurora.', hotel, []))).toBe(1);
  });

  it('resolves relative dates from the run\'s day: tomorrow is not the day it shipped', () => {
    const tool = [{ toolName: 'lookupOrder', result: ORDER }];
    expect(claimGroundingScore(checkClaims('Order A-1009 shipped yesterday.', tool, [], { day: '2026-01-01' }))).toBe(1);
    const r = checkClaims('Order A-1009 ships tomorrow.', tool, [], { day: '2026-01-01' });
    expect(r.contradicted.map((i) => i.reading)).toEqual(['2026-01-02']);
    // Without the run's day, "tomorrow" is no specific.
    expect(checkClaims('Order A-1009 ships tomorrow.', tool, []).contradicted).toEqual([]);
  });

  it('never fails unverified specifics: 0.5 + 0.5 · supported / (supported + unverified); a contradiction is 0 however much else is right', () => {
    // Supported: A-1009, DHL, on its way; unverified: $15 (no tool mentions a credit).
    const r = checkClaims("Order A-1009 is on its way with DHL. We've added a $15 credit to your account.", [{ toolName: 'lookupOrder', result: ORDER }], []);
    expect(texts(r.supported)).toEqual(['A-1009', 'DHL', 'on its way']);
    expect(texts(r.unverified)).toEqual(['$15']);
    expect(claimGroundingScore(r)).toBe(0.5 + (0.5 * 3) / 4);
    const soft = checkClaims('It is 18°C in Lisbon, says our agent Maria.', [{ toolName: 'getWeather', result: WEATHER }], []);
    expect(texts(soft.unverified)).toEqual(['Maria']);
    expect(claimGroundingScore(soft)).toBe(0.5 + (0.5 * 2) / 3);
    // Nothing checkable at all: 0.5, which the default threshold (0.5) passes.
    const none = checkClaims('Our agent Maria will call you.', [{ toolName: 'getWeather', result: WEATHER }], []);
    expect(none.supported).toEqual([]);
    expect(claimGroundingScore(none)).toBe(0.5);
    // The reason says what could not be verified, then the counts and the score with two decimals.
    expect(claimGroundingReason(r, claimGroundingScore(r))).toBe('Could not be verified: "$15" (15 USD). 3 supported, 0 contradicted, 0 made up, 1 unverified; score 0.88.');
    // Five supported specifics and one contradiction: still 0 (no tie can pass a contradiction).
    const many = checkClaims('It is 25°C in Lisbon with light rain and 81% humidity, says order A-1009 shipped with DHL.', [{ toolName: 'getWeather', result: WEATHER }, { toolName: 'lookupOrder', result: ORDER }], []);
    expect(many.supported.length).toBeGreaterThanOrEqual(5);
    expect(claimGroundingScore(many)).toBe(0);
  });

  it('fails a made-up identifier: a tracking number, an e-mail, a URL, a phone number in no tool result or input', () => {
    const tool = [{ toolName: 'getShipment', result: { trackingNumber: '1Z999AA10123456784', contact: 'help@parcelly.com', phone: '+1 (555) 010-7788', url: 'https://parcelly.com/track/1Z999AA10123456784' } }];
    const made = (answer: string): string[] => checkClaims(answer, tool, [], { givenText: 'Where is 1Z999AA10123456784? Reply to ann@example.com' }).fabricated.map((i) => i.text);
    expect(made('Track it with 1Z999AA10123456999.')).toEqual(['1Z999AA10123456999']);
    expect(made('Write to claims@parcelly.com.')).toEqual(['claims@parcelly.com']);
    expect(made('See https://parcelly.com/claims/new for a claim.')).toEqual(['https://parcelly.com/claims/new']);
    expect(made('Call 555-010-9999.')).toEqual(['555-010-9999']);
    // The same identifiers as the tool or the question gave them, written another way: not made up.
    expect(made('Tracking 1Z999AA10123456784 — see parcelly.com/track/1Z999AA10123456784, call 555-010-7788 or write to help@parcelly.com; we will reply to ann@example.com.')).toEqual([]);
  });

  it('does not count what the question gave, and checks derived values (sums, conversions)', () => {
    const given = checkClaims('Order A-2000 is not in our system yet.', [{ toolName: 'lookupOrder', result: { found: false } }], [], { givenText: 'Where is order A-2000?' });
    expect(texts(given.given)).toEqual(['A-2000']);
    expect(claimGroundingScore(given)).toBe(1);
    const sum = checkClaims('The jacket is $89 and shipping $12.50, so $101.50 in total.', [{ toolName: 'checkStock', result: { price: 89 } }, { toolName: 'quote', result: { costUsd: 12.5 } }], []);
    expect(sum.unverified).toEqual([]);
    expect(claimGroundingScore(sum)).toBe(1);
    expect(claimGroundingScore(checkClaims('It is 64.4°F in Lisbon.', [{ toolName: 'getWeather', result: WEATHER }], []))).toBe(1);
  });

  it('reads a markdown table by column: a wrong cell is contradicted, the header row is not a claim', () => {
    const stock = [{ toolName: 'checkStock', result: { stores: [{ store: 'Naperville', units_in_stock: 140 }, { store: 'Evanston', units_in_stock: 4 }, { store: 'Joliet', units_in_stock: 57 }] } }];
    const table = (evanston: string): string => `| Store | Units in stock |\n|---|---:|\n| Naperville | 140 |\n| Evanston | ${evanston} |\n| Joliet | 57 |`;
    const right = checkClaims(table('4'), stock, []);
    expect([right.contradicted, right.fabricated, right.unverified]).toEqual([[], [], []]);
    expect(right.supported.map((i) => i.text)).not.toContain('Store');
    const wrong = checkClaims(table('14'), stock, []);
    expect(wrong.contradicted.map((i) => [i.text, i.sources[0]?.path])).toEqual([['14', 'stores.1.units_in_stock']]);
  });

  it('is applicable after a failed call: an honest answer passes, the error text is a source, a made-up id fails', async () => {
    const failed = (answer: string) => ({
      input: { inputMessages: [msg('user', 'Where is NL440918273356?')], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: [msg('assistant', answer, [{ toolCallId: 'c1', toolName: 'getShipment', args: {}, state: 'output-error', errorText: '503 Service Unavailable: tracking-api overloaded' }])],
    });
    const honest = await createClaimGroundingScorer().run(failed('Sorry, the tracking service returned a 503 just now. Please try again in a few minutes.'));
    expect(honest.notScorable).toBeUndefined();
    const p = honest.preprocessStepResult as ReturnType<typeof checkClaims>;
    expect([p.supported.map((i) => i.text), p.contradicted, p.fabricated]).toEqual([['503'], [], []]);
    expect(honest.score).toBeGreaterThanOrEqual(0.5);
    const madeUp = await createClaimGroundingScorer().run(failed('It is with carrier ref PX-99120455 and arrives Friday.'));
    expect(madeUp.score).toBe(0);
  });

  it('keeps running on values a unit cannot hold (a temperature below absolute zero)', () => {
    const r = checkClaims('It is 12°F and the low is -300°C.', [{ toolName: 'getWeather', result: { temp_c: -900, low_c: -1200, city: 'X' } }], []);
    expect(claimGroundingScore(r)).toBeGreaterThanOrEqual(0);
  });

  it('walks JSON held in strings and reads retrieved documents and static context', async () => {
    // AI SDK 6 records a tool result as a JSON string.
    expect(claimGroundingScore(checkClaims('Shipped with DHL.', [{ toolName: 'lookupOrder', result: JSON.stringify(ORDER) }], []))).toBe(1);
    const docs = checkClaims('Refunds are issued within 14 days, and return shipping is free.', [], ['Refunds are issued within 14 days of purchase for unused items.']);
    expect(docs.supported.map((i) => i.text)).toContain('14 days');
    expect(docs.contradicted).toEqual([]);
    // A duration of prose that names no key is not tied to the document's: unverified, never a contradiction.
    const other = checkClaims('Refunds are issued within 30 days.', [], ['Refunds are issued within 14 days of purchase for unused items.']);
    expect([other.contradicted.length, other.unverified.map((i) => i.text)]).toEqual([0, ['30 days']]);
    const s = createClaimGroundingScorer({ context: ['Support is open from 9am.'] });
    expect((await s.run({ output: [msg('assistant', 'We open at 9am.')] })).score).toBe(1);
  });

  it('is not applicable without tool results or documents (no-grounding-source), never a pass or a fail', async () => {
    const r = await createClaimGroundingScorer().run({ output: [msg('assistant', 'Hello! It costs 42.')] });
    expect(r.score).toBeUndefined();
    expect(r.notScorable).toEqual({ step: 'preprocess', reason: 'no-grounding-source' });
  });

  it('is registered as a code type with the context option, checked strictly', async () => {
    const registry = createScorerRegistry();
    const s = await registry.build('grounding', { type: 'claim-grounding', threshold: 0.6, context: ['x'] });
    expect([s.kind, s.direction, s.threshold]).toEqual(['code', 'higher', 0.6]);
    await expect(registry.build('g', { type: 'claim-grounding', contxt: [] })).rejects.toThrow(/scorers\.g\.contxt: unknown option/);
  });
});
