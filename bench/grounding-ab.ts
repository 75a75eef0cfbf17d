/**
 * A/B of the claim-grounding scorer between a pristine source tree (A) and this one (B): first asserts that
 * both give bit-identical output on a broad corpus, then times both, passes interleaved (A, B, B, A, …) in
 * one process so load on a shared machine hits both alike.
 *
 *     node --import tsx bench/grounding-ab.ts --base A_ROOT [--rl FILE] [--passes N] [--no-time] [--no-compare]
 *
 * `A_ROOT` (required) is a checkout of the code to compare with, e.g. made with
 * `git worktree add ../tj-base HEAD` plus a `node_modules` symlink; its TypeScript sources are
 * imported through tsx. The corpus:
 * - every run the extractor finds in `test/fixtures/traces/*.json` (with the `.logs.json` files), in the
 *   labeled set of `bench/scenarios/verdicts.ts` (`test/fixtures/labeled/*.json`) and in `--rl` (default
 *   `/tmp/rl.jsonl`, left out with a line on stderr when absent; an `--rl` given and missing is an error), decoded by the service's own file source; each run twice: as the
 *   pipeline hands it to a scorer (`scorerRunOf`, live facts) and as `tracejudge extract` prints it (tool
 *   results read from the output messages);
 * - every run of the blind labeled set (`test/fixtures/blind/*.json`), both shapes too;
 * - synthetic stress runs: hand-written texts and seeded random compositions of numbers with units, money in
 *   several currencies, dates, times, negated statuses, ids, names, unicode, empty and very long texts,
 *   against synthetic tool results (nested, JSON strings, booleans, cents, huge) and documents.
 * Compared: the whole result of the claim-grounding scorer and of the answered scorer (which reads the same
 * sources) on every run; `checkClaims` for every distinct answer × the sources of every distinct run; and the
 * exported helpers (`runSources`, `groundingSources`, `groundingTerms`, `extractSpecifics`, `contentWords`,
 * `substantive`, …) on every text and tool result. Serialisation keeps key order, `undefined`, `-0`, `NaN`,
 * Sets and Maps. Exits 1 on the first differences (printed).
 *
 * Timing: µs per run of `scorer.run` (the claim-grounding scorer), median of the passes, on the real-library
 * runs (`--rl`, live facts) and on the distinct-text runs (fixtures and labeled set, live facts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../src/config/load.js';
import { Extractor } from '../src/extract/extract.js';
import type { AgentRunContext } from '../src/model/agent-run.js';
import { scorerRunOf } from '../src/pipeline/evaluate.js';
import type { ConfiguredScorer } from '../src/scorers/descriptor.js';
import { LIVE_RUN_KEY } from '../src/scorers/llm/shared.js';
import { createScorerRegistry } from '../src/scorers/registry.js';
import { buildService, runToEnd } from '../src/service/build.js';
import { createSettings } from '../src/service/settings.js';
import { silentLogger } from '../src/telemetry/log.js';
import { median } from './lib/stats.js';
import { seededRandom as prng } from '../test/seeded-random.js';

type Index = typeof import('../src/scorers/code/claim-grounding/index.js');
type Sources = typeof import('../src/scorers/code/claim-grounding/sources.js');
type Specifics = typeof import('../src/scorers/code/claim-grounding/specifics.js');
type RunSourcesMod = typeof import('../src/scorers/code/claim-grounding/run-sources.js');
type Answered = typeof import('../src/scorers/code/answered/index.js');
type Run = Parameters<ReturnType<Index['createClaimGroundingScorer']>['run']>[0];

/** One side of the comparison: the modules of one source tree. */
interface Side {
  label: string;
  index: Index;
  sources: Sources;
  specifics: Specifics;
  runSources: RunSourcesMod;
  answered: Answered;
}

const REPO = fileURLToPath(new URL('..', import.meta.url));

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

async function loadSide(label: string, root: string): Promise<Side> {
  const mod = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(root, path)).href)) as T;
  return {
    label,
    index: await mod<Index>('src/scorers/code/claim-grounding/index.ts'),
    sources: await mod<Sources>('src/scorers/code/claim-grounding/sources.ts'),
    specifics: await mod<Specifics>('src/scorers/code/claim-grounding/specifics.ts'),
    runSources: await mod<RunSourcesMod>('src/scorers/code/claim-grounding/run-sources.ts'),
    answered: await mod<Answered>('src/scorers/code/answered/index.ts'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Serialisation that tells apart everything JSON.stringify would merge.

function replacer(_key: string, v: unknown): unknown {
  if (v === undefined) return '<undefined>';
  if (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v))) return `<number ${Object.is(v, -0) ? '-0' : String(v)}>`;
  if (v instanceof Set) return { '<set>': [...(v as Set<unknown>)] };
  if (v instanceof Map) return { '<map>': [...(v as Map<unknown, unknown>)] };
  if (v instanceof Error) return { '<error>': `${v.name}: ${v.message}` };
  return v;
}

const ser = (v: unknown): string => JSON.stringify(v, replacer) ?? '<undefined>';

/** The value of `fn()`, or the error it threw (a thrown error must be the same on both sides too). */
function attempt<T>(fn: () => T): T | { threw: string } {
  try {
    return fn();
  } catch (err) {
    return { threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

async function attemptAsync<T>(fn: () => Promise<T>): Promise<T | { threw: string }> {
  try {
    return await fn();
  } catch (err) {
    return { threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Corpus: real runs.

const AGENT_SCORER = { input: 'agent' } as unknown as ConfiguredScorer;

/** Every agent run the extractor finds in `paths`, decoded by the service's file source. */
async function extractRuns(paths: readonly string[]): Promise<AgentRunContext[]> {
  const registry = createScorerRegistry();
  const config = parseConfig({}, '<bench>', {}, { scorers: registry });
  const settings = createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false });
  const extractor = new Extractor(config.extract, settings.keyFlags);
  const out: AgentRunContext[] = [];
  const service = await buildService(config, settings, {
    source: { kind: 'files', paths },
    handleTrace: (trace) => {
      for (const c of extractor.runContexts(trace)) out.push(c);
      return Promise.resolve();
    },
  });
  await runToEnd(service);
  return out;
}

/** The pipeline's scorer run (live facts) and the printed run (`tracejudge extract`, no live facts). */
function bothShapes(contexts: readonly AgentRunContext[]): { live: Run[]; printed: Run[] } {
  return {
    live: contexts.map((c) => scorerRunOf(c, AGENT_SCORER, undefined) as unknown as Run),
    printed: contexts.map((c) => ({ ...(JSON.parse(JSON.stringify(c.run)) as object), runId: `${c.run.traceId}:${c.run.spanId}` }) as unknown as Run),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Corpus: synthetic stress runs.

const FRAGMENTS: readonly string[] = [
  '', ' ', '.', '\n\n', '...', 'OK', 'Sure!', 'Let me check that for you.', "I'm sorry, I can't access order details.",
  'It is 18°C (64.4 °F) in Lisbon, 5 km away; it weighs 3.5 kg and the wind is 12 mph (20 km/h, 7 m/s).',
  'The parcel weighs 100 lbs, travels 2 miles, is 30 cm wide and 5 m long; 3 min later, 250 g more.',
  'It is 18ºC, -3 °C, −5° C, 21 degrees, 70 degrees fahrenheit, 19 degrees Celsius, 18C and 64F.',
  'Order A-1009 came to $1,276.40, or €12.50, £7, ¥3000, US$ 20, USD 15.99, eur 12, CHF 40 and 15 dollars.',
  'That is 3 euros, 10 pounds, 500 yen, forty dollars, 1 dollar, −5 USD, .5 EUR and $ 0.99 in total.',
  'Humidity is 81%, 12 percent chance, 3 per cent fee, about 10 pct, 0.5% tax.',
  'It shipped on 2025-12-31, arrives 2026-01-03T10:30:00Z and was ordered 2025/12/28; 2026-02-30 is no date.',
  'Delivery on 31 December 2025, December 31st, 2025, Wednesday, 31 December, Jan 5, the 3rd of March, Sept. 9.',
  'It may 5 be fine; May 5 it arrives; mar 3 maybe; on the 12th of may.',
  'It arrived yesterday, leaves tomorrow, the day after tomorrow, the day before yesterday, next Monday, last friday, this evening, tonight, coming Sunday, on Friday.',
  'Boarding at 9:40, departs 10:25 am, lands 3pm, 3 p.m. or 11 P.M.; check-in at noon, closes at midnight, 23:59, 24:00, 13pm, 0:05.',
  'Refunds take 14 days; delivery in 3 days, in 2 weeks, within 45 minutes, warranty 6 months, 3-5 business days, 2 to 4 hours, 1 year.',
  'A 24-month warranty, a 3-pack, 5-7 days, 18-20 degrees, 2-hour slot.',
  'Your ids: A-1009, ORD_55231, AB12345, #A1009, # 77-X, gate B12, seat 14C, room 101, terminal 2, PIN 4821.',
  'Call +1 (555) 123-4567 or 555-1234 or 020 7946 0958; tracking 1234567890; see https://example.com/track?id=1 or mail john.doe+x@example.co.uk.',
  'The Nimbus Rain Jacket is not the Storm Shell Jacket; DHL, FedEx, Royal Mail and Canada Post deliver to New York and São Paulo.',
  'Your DHL parcel left Paris for Zürich; British Airways and Air France fly there. Thanks, Mr O’Brien.',
  "Paris's weather: sunny. London's: partly cloudy with light rain, light_rain and thunderstorms.",
  'Москва и 東京: статус доставлен 🚚, 価格 ¥3000; Ünïcödé Ñame ordered 3 items.',
  'The item is not available. It isn\'t shipped. It hasn\'t shipped yet. It is unavailable and out of stock.',
  'It will be available soon; back in stock on the 15th; expected to ship once paid.',
  'Click to open the app; open the ticket; the ticket is open; it failed to load; the case was closed.',
  "It's not cancelled but delivered, never delayed, neither paid nor refunded; the flight is on time.",
  'Status: in-transit, in_transit, out for delivery, on its way, awaiting shipment, on hold, past due, under review.',
  'The account is active, not suspended; the payment failed and was declined; the refund was issued.',
  'Breakfast is included. Breakfast isn\'t included, but parking is. It covers accidental damage; it does not cover theft.',
  'It costs about 20 items, roughly $50, up to 3 rooms, nearly 10 km, at least 4 nights, more than 2 hours.',
  'You have 3 items, two rooms, five nights, 12 boxes, 4 batteries, 1 order and 3 Orders.',
  '- First bullet with 3 items\n* Second with $5\n• Third: 9:40\n1. Numbered 2026-01-05\n2) Another one',
  'Q? Yes! OK. Done. Right; fine; Hello: world.',
  'I think 42. Pi is 3.14159; 1,000,000 people; 0.001 kg; 1e3 units; 007 agents; 12,34 mixed.',
  'Good news! Unfortunately Hotel Zürich is fully booked. The Kettle K2 warranty lasts 3 months.',
  'Flight BA 117 from Terminal 5 is delayed by 45 minutes; it departs 10:25 from gate B12, status boarding.',
  'It is raining, drizzling and foggy; 5 °C; clear skies tomorrow, overcast on Friday.',
  'Total: $1,276.40 (subtotal $1,100, tax $176.40); paid by card, not refunded.',
  'We have 2 rooms at €120 per night for 5 nights, check-in 2026-01-05 at 15:00.',
  'Your order A-1009 was cancelled and refunded yesterday via FedEx.',
  'The temperature is 64.4°F; 18 °C; humidity 81 %; wind 12 km/h.',
  'AB-12 and X9 and 12AB and A1-B2-C3 and v1.2.3 and 10.0.0.1 and 2026.01.01.',
  // `ſ` and the Kelvin sign fold to s and k under the `iu` flags; İ lowercases to i + a dot.
  'It coſts 12 uſd, ſhipped ſept 3 on ſunday; deſk 4B, ſeven days; 5 KM away at 9 ſharp, İn ſtock.',
  'Lock K12 at 18 °C — ſix items, not ſhipped yet; İstanbul by FedEx.',
];

const PIECES: readonly string[] = [
  'The order', 'Your parcel', 'It', 'DHL', 'FedEx', 'Lisbon', 'The Nimbus Rain Jacket', 'Hotel Zürich', 'Flight BA 117', 'The refund',
  'is', 'is not', "isn't", 'was', 'will be', 'has', "hasn't", 'costs', 'arrives', 'left',
  'shipped', 'delivered', 'available', 'unavailable', 'out of stock', 'cancelled', 'on time', 'delayed', 'paid', 'open', 'closed', 'sunny', 'light rain',
  '$1,276.40', '€120', '£7.50', '18°C', '64 °F', '81%', '3 items', 'two rooms', '5 nights', '6 months', '14 days', '45 minutes', 'about 20 km',
  'on 2025-12-31', 'yesterday', 'tomorrow', 'next Monday', 'on Friday', 'Jan 5', '31 December 2025', 'at 9:40', 'at 3pm', 'at noon',
  'A-1009', 'ORD-77812', '#A1009', 'gate B12', '+1 555 123 4567', 'AB12345', '1234567890', 'https://x.example/a',
  'and', 'but', 'while', 'via', 'for', 'in', 'with', ',', ';', '.', '!', '?', '\n', ' - ', ':',
  'Москва', '東京', 'São Paulo', 'ÉLAN', 'naïve café', '🙂', 'x'.repeat(40), '0', '-0', '1e21', '9'.repeat(25),
];

const TOOLS: readonly { toolName: string; args?: unknown; result: unknown }[] = [
  {
    toolName: 'lookupOrder',
    args: { orderId: 'A-1009', verbose: true, n: 3 },
    result: { orderId: 'A-1009', status: 'shipped', carrier: 'DHL', shippedOn: '2025-12-31', total: 1276.4, currency: 'USD', eta: 'in 3 days', deliveredAt: null, items: [{ name: 'Nimbus Rain Jacket', qty: 2, priceCents: 4999 }, { name: 'Storm Shell Jacket', qty: 1, price: 89.5 }] },
  },
  { toolName: 'getWeather', args: { city: 'Lisbon' }, result: { city: 'Lisbon', temperatureC: 18, temperatureF: 64.4, condition: 'light rain', humidity: 81, windKmh: 12, chanceOfRain: 0.3, feelsLike: -3, forecast: [{ day: 'Friday', condition: 'sunny', tempC: 21 }, { day: '2026-01-03', condition: 'partly_cloudy' }] } },
  {
    toolName: 'search_hotels',
    args: { city: 'Zürich', nights: 5 },
    result: [{ hotel: 'Hotel Zürich', breakfastIncluded: true, available: false, inStock: 0, rooms: 3, nights: 5, priceEur: 120, checkIn: '2026-01-05', checkInTime: '15:00', isRefundable: false, coversAccidentalDamage: true, hasParking: true, flag: true }],
  },
  { toolName: 'getFlight', args: 'BA117', result: { flight: 'BA 117', airline: 'British Airways', gate: 'B12', terminal: '5', departure: '09:40', delayMinutes: 45, status: 'delayed', arrival: '2026-01-01T10:25:00Z', on_time: false, boarding: true } },
  { toolName: 'getWarranty', result: { product: 'Kettle K2', warrantyMonths: 3, refund_window_days: 14, 'Total Amount': '$1,276.40', amountCents: 127640, balanceDue: -0, pct: 0.5, weightKg: 3.5, distanceMiles: 2, speedMph: 12, durationHours: 1.5, waitSeconds: 30 } },
  { toolName: 'lookupOrder', result: JSON.stringify({ orderId: 'ORD-77812', status: 'cancelled', refund: { amount: 59.99, currency: 'EUR', issued: true, issuedOn: '2025-12-30' }, note: 'Refund issued on Dec 30; the customer will receive it in 5-7 business days.' }) },
  { toolName: 'kb', result: 'Refunds take 14 days. Orders ship within 2 business days from our Paris warehouse. Call +1 (555) 123-4567 between 9am and 5pm.' },
  { toolName: 'empty', result: '' },
  { toolName: 'emptyArr', result: '[]' },
  { toolName: 'nullish', result: null },
  { toolName: 'notFound', result: 'Not found' },
  { toolName: 'errorObj', result: { error: 'boom', status: 'error' } },
  { toolName: 'errorJson', result: '{"error":"boom"}' },
  { toolName: 'badJson', result: '{not json at all, 12 items' },
  { toolName: 'paddedJson', result: '   {"a": 1, "status": "not_found"}  ' },
  { toolName: 'found', result: { found: false, exists: true } },
  { toolName: 'proto', result: JSON.parse('{"__proto__": {"status": "paid", "x": 1}, "constructor": "ok"}') as unknown },
  { toolName: 'deep', result: 'abcdefghijklmn'.split('').reduceRight<unknown>((inner, k) => ({ [k]: inner, note: `level ${k} 3 items` }), { status: 'delivered', total: 5 }) },
  { toolName: 'booleans', result: { paid: true, refunded: false, isActive: true, hasWifi: true, is_open: false, shipped: 0, available: 1, value: true, availability: 'in stock', instock: 'yes' } },
  { toolName: 'numbers', result: { a: 1e21, b: 0.1 + 0.2, c: -0, d: 1e-7, e: Number.MAX_SAFE_INTEGER, count: 7, itemsCount: 3, nightCount: 2, percentage: 45, probability: 0.9, humidity: 1, priceUsd: 12, amountGbp: 7.5, pence: 250 } },
  { toolName: 'unicode', result: { city: 'Москва', другой: '東京', name: 'São Paulo', note: 'naïve café ÉLAN 🙂', emoji: '🚚 shipped' } },
  { toolName: 'mixedArray', result: [1, 'two', true, null, [3, [4, ['five 5']]], { x: 'y' }, '2026-01-01', '10:30'] },
  { toolName: 'getAccount', result: { user: { name: 'Ana Lima', email: 'ana.lima@example.com', status: 'Active', tier: 'gold' }, lastLogin: '2025-12-31T23:59:59Z', balance: '€ 45.00' } },
  { toolName: 'tickets', result: { tickets: [{ id: 'T-100', state: 'open' }, { id: 'T-101', state: 'in_progress' }, { id: 'T-102', state: 'closed', resolvedAt: 'Jan 2' }] } },
  { toolName: 'huge', result: Array.from({ length: 2300 }, (_, i) => ({ sku: `SKU-${i}`, label: `Item number ${i} of the set, ${i % 7} left`, price: i / 4 })) },
  { toolName: 'longText', result: 'Lorem ipsum dolor sit amet. '.repeat(2000) + 'The order A-1009 shipped via DHL for $1,276.40.' },
  { toolName: 'getWeather', result: { location: { city: 'Paris', country: 'France' }, current: { temp_f: 64, condition: 'Overcast', wind_mph: 9 }, alerts: [] } },
];

const DOCUMENTS: readonly string[] = [
  'Refunds take 14 days.',
  '',
  'Our return policy: items can be returned within 30 days. Shipping costs $5.99 (free over $50). Orders placed before 3pm ship the same day via DHL or FedEx.',
  'Flights to Tokyo depart at 10:25 on Mondays and Fridays; British Airways gate B12. Check-in closes 45 minutes before.',
  'Die Bestellung wurde am 31. Dezember versandt. 東京の天気は晴れ、18°C。',
  'Policy FAQ:\n- Warranty: 24 months\n- Support: support@example.com\n- Hotline +44 20 7946 0958',
  'The Nimbus Rain Jacket is available in stock in sizes S-XL; the Storm Shell Jacket is sold out.',
];

const QUESTIONS: readonly string[] = ['', 'q', 'Where is my order A-1009?', 'What is the weather in Lisbon today?', 'Is breakfast included at Hotel Zürich from 2026-01-05 for 5 nights?', 'Is flight BA 117 on time? I paid $1,276.40 on Jan 5.', 'Почему 東京?'];
const START_TIMES: readonly unknown[] = ['2026-01-01T10:00:00Z', undefined, '2024-02-29T23:59:59.999Z', '1970-01-01T00:00:00Z', 'not a date', '2025-12-31', 0, new Date('2026-03-15T12:00:00Z'), new Date(Number.NaN)];

function stressAnswers(): string[] {
  const rnd = prng(18);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const out: string[] = [...FRAGMENTS];
  out.push(FRAGMENTS.join(' '), FRAGMENTS.join('\n').repeat(8), 'a'.repeat(50_000), `${'9'.repeat(1000)} items`, ' '.repeat(5000), 'é'.repeat(3000));
  for (let i = 0; i < 400; i++) {
    const parts: string[] = [];
    const n = 2 + Math.floor(rnd() * 14);
    for (let j = 0; j < n; j++) parts.push(rnd() < 0.15 ? pick(FRAGMENTS) : pick(PIECES));
    let s = parts.join(rnd() < 0.8 ? ' ' : '');
    if (rnd() < 0.5) s = s.charAt(0).toUpperCase() + s.slice(1);
    if (rnd() < 0.2) s = s.toUpperCase();
    out.push(s);
  }
  return out;
}

function message(role: 'user' | 'assistant', text: string, toolInvocations?: unknown[]): unknown {
  return { id: `m-${role}`, role, createdAt: '2026-01-01T10:00:00.000Z', content: { format: 2, parts: [{ type: 'text', text }], content: text, ...(toolInvocations ? { toolInvocations } : {}) } };
}

/** Stress runs in both shapes (live facts and tool invocations in the output). */
function stressRuns(answers: readonly string[]): Run[] {
  const rnd = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const runs: Run[] = [];
  // The two huge tools (each costs tenths of a second per run) in a few runs only.
  const big = new Set(['huge', 'longText']);
  const common = TOOLS.filter((t) => !big.has(t.toolName));
  answers.forEach((answer, i) => {
    const tools = Array.from({ length: Math.floor(rnd() * 4) }, () => pick(common));
    if (i % 60 === 0) tools.push(...TOOLS.filter((t) => big.has(t.toolName)));
    const docs = Array.from({ length: rnd() < 0.3 ? 1 + Math.floor(rnd() * 2) : 0 }, () => pick(DOCUMENTS));
    const question = pick(QUESTIONS);
    const startTime = pick(START_TIMES);
    const invocations = tools.map((t, k) => ({ toolCallId: `c${k}`, toolName: t.toolName, args: t.args ?? {}, state: 'result', result: t.result }));
    const input = { inputMessages: [message('user', question)], rememberedMessages: rnd() < 0.2 ? [message('user', pick(QUESTIONS))] : [], systemMessages: rnd() < 0.5 ? [{ role: 'system', content: 'You are Acme support. Today is 2026-01-01. Order ids look like A-1234.' }] : [], taggedSystemMessages: {} };
    const output = [message('assistant', answer, invocations)];
    runs.push({ runId: `stress-live-${i}`, input, output, requestContext: { [LIVE_RUN_KEY]: { toolResults: tools.map((t, k) => ({ toolName: t.toolName, toolCallId: `c${k}`, args: t.args, result: t.result })), context: docs, startTime } } });
    runs.push({ runId: `stress-printed-${i}`, input, output });
  });
  return runs;
}

// ---------------------------------------------------------------------------------------------------------
// Comparison.

class Diffs {
  compared = 0;
  readonly found: string[] = [];
  check(what: string, a: unknown, b: unknown): void {
    this.compared++;
    const sa = ser(a);
    const sb = ser(b);
    if (sa === sb) return;
    if (this.found.length < 10) this.found.push(`${what}\n  A: ${sa.slice(0, 1500)}\n  B: ${sb.slice(0, 1500)}`);
    else this.found.push(what);
  }
}

/** The scorer result without the run it echoes (the same object on both sides). */
function resultOf(r: unknown): unknown {
  if (r === null || typeof r !== 'object' || 'threw' in r) return r;
  const { input: _i, output: _o, requestContext: _r, groundTruth: _g, ...rest } = r as Record<string, unknown>;
  return rest;
}

async function compareRuns(d: Diffs, a: Side, b: Side, label: string, runs: readonly Run[]): Promise<void> {
  const sa = { grounding: a.index.createClaimGroundingScorer(), answered: a.answered.createAnsweredScorer(), context: a.index.createClaimGroundingScorer({ context: ['Refunds take 14 days.', 'Ships from Paris on Jan 5.'] }) };
  const sb = { grounding: b.index.createClaimGroundingScorer(), answered: b.answered.createAnsweredScorer(), context: b.index.createClaimGroundingScorer({ context: ['Refunds take 14 days.', 'Ships from Paris on Jan 5.'] }) };
  for (const [i, run] of runs.entries()) {
    for (const k of ['grounding', 'answered', 'context'] as const) {
      const ra = resultOf(await attemptAsync<unknown>(() => sa[k].run(run)));
      const rb = resultOf(await attemptAsync<unknown>(() => sb[k].run(run)));
      d.check(`${label} run ${i} (${run.runId}) ${k} scorer`, ra, rb);
    }
    d.check(`${label} run ${i} runSources`, attempt(() => a.runSources.runSources(run as never, ['static doc'])), attempt(() => b.runSources.runSources(run as never, ['static doc'])));
  }
}

type Src = ReturnType<RunSourcesMod['runSources']>;

/** `checkClaims` (with score and reason) and `nonAnswerOf` for every answer × every source set. */
function compareCross(d: Diffs, a: Side, b: Side, label: string, answers: readonly string[], sources: readonly Src[]): void {
  const one = (side: Side, answer: string, s: Src): unknown =>
    attempt(() => {
      const res = side.index.checkClaims(answer, s.tools, s.documents, { givenText: s.givenText, ...(s.day ? { day: s.day } : {}) });
      const score = side.index.claimGroundingScore(res);
      return { score, reason: side.index.claimGroundingReason(res, score), res, nonAnswer: side.answered.nonAnswerOf(answer, s.question, s.tools, s.documents) };
    });
  answers.forEach((answer, i) => {
    sources.forEach((s, j) => d.check(`${label} answer ${i} × sources ${j}`, one(a, answer, s), one(b, answer, s)));
  });
}

/** The exported helpers on every text and every tool result. */
function compareHelpers(d: Diffs, a: Side, b: Side, texts: readonly string[], tools: readonly (readonly Src['tools'][number][])[]): void {
  const refs = [undefined, '2026-01-01', '2024-02-29'];
  for (const [i, t] of texts.entries()) {
    const both = (what: string, f: (s: Side) => unknown): void => d.check(`text ${i} ${what}`, attempt(() => f(a)), attempt(() => f(b)));
    both('contentWords', (s) => s.sources.contentWords(t));
    both('splitClaims', (s) => s.specifics.splitClaims(t));
    for (const ref of refs) {
      both(`extractSpecifics ${ref}`, (s) => s.specifics.extractSpecifics(t, ref ? { ref } : {}));
      both(`extractSpecifics source ${ref}`, (s) => s.specifics.extractSpecifics(t, { source: true, ...(ref ? { ref } : {}) }));
      // B's given-text reading (numbers, dates, times only) against A's full reading without names and statuses.
      const given = { source: true, ...(ref ? { ref } : {}) };
      d.check(
        `text ${i} quantities ${ref}`,
        attempt(() => a.specifics.extractSpecifics(t, given).specifics.filter((x) => x.kind !== 'entity' && x.kind !== 'status')),
        attempt(() => b.specifics.extractSpecifics(t, { ...given, quantities: true }).specifics),
      );
    }
    both('documents', (s) => s.sources.groundingSources([], [t], '2026-01-01'));
    both('substantive', (s) => s.runSources.substantive(t));
    for (const w of t.split(/\s+/).slice(0, 40)) {
      both(`words ${w}`, (s) => [s.sources.stem(w), s.sources.keyWords(w), s.specifics.singular(w), s.specifics.parseNumber(w), s.specifics.idOf(w)]);
    }
  }
  for (const [i, ts] of tools.entries()) {
    const both = (what: string, f: (s: Side) => unknown): void => d.check(`tools ${i} ${what}`, attempt(() => f(a)), attempt(() => f(b)));
    both('groundingSources', (s) => s.sources.groundingSources(ts, [], '2026-01-01'));
    both('groundingSources no ref', (s) => s.sources.groundingSources(ts, DOCUMENTS));
    both('groundingTerms', (s) => s.sources.groundingTerms(ts, DOCUMENTS));
    both('substantive', (s) => ts.map((t) => s.runSources.substantive(t.result)));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Timing.

async function timeRuns(sides: readonly Side[], runs: readonly Run[], passes: number, repeat: number): Promise<number[]> {
  const scorers = sides.map((s) => s.index.createClaimGroundingScorer());
  const samples: number[][] = sides.map(() => []);
  const pass = async (k: number): Promise<number> => {
    const scorer = scorers[k] as (typeof scorers)[number];
    const t0 = performance.now();
    for (let r = 0; r < repeat; r++) for (const run of runs) await scorer.run(run);
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) for (let k = 0; k < sides.length; k++) await pass(k);
  for (let i = 0; i < passes; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) (samples[k] as number[]).push(await pass(k));
  }
  return samples.map((s) => (median(s) * 1000) / (runs.length * repeat));
}

// ---------------------------------------------------------------------------------------------------------

/** Stops with a one-line usage error on stderr (exit 2). */
function usage(message: string): never {
  process.stderr.write(`grounding-ab: ${message}\nusage: grounding-ab.ts --base A_ROOT [--rl FILE] [--passes N] [--no-time] [--no-compare]\n`);
  process.exit(2);
}

const base = option('--base', '');
if (base === '') usage('--base A_ROOT is required (a checkout of the code to compare with)');
if (!existsSync(resolve(base, 'src/scorers/code/claim-grounding/index.ts'))) usage(`--base ${base}: no src/scorers/code/claim-grounding/index.ts there`);
const rlPath = option('--rl', '/tmp/rl.jsonl');
if (process.argv.includes('--rl') && !existsSync(rlPath)) usage(`--rl ${rlPath}: no such file`);
if (!existsSync(rlPath)) process.stderr.write(`grounding-ab: ${rlPath} is absent; the real-library runs are left out\n`);
const passesArg = option('--passes', '15');
const passes = Number(passesArg);
if (!Number.isSafeInteger(passes) || passes < 1) usage(`--passes must be a positive integer, got ${JSON.stringify(passesArg)}`);
const A = await loadSide('A', base);
const B = await loadSide('B', REPO);

const traceDir = resolve(REPO, 'test/fixtures/traces');
const fixtureFiles = readdirSync(traceDir).filter((f) => f.endsWith('.json')).map((f) => resolve(traceDir, f));
const labeledFiles = ['aisdk6.json', 'openinference.json'].map((f) => resolve(REPO, 'test/fixtures/labeled', f));
const fixtures = bothShapes(await extractRuns(fixtureFiles));
const labeled = bothShapes(await extractRuns(labeledFiles));
const rl = existsSync(rlPath) ? bothShapes(await extractRuns([rlPath])) : { live: [], printed: [] };
const blind = bothShapes(await extractRuns(['aisdk6.json', 'openinference.json', 'genai.json'].map((f) => resolve(REPO, 'test/fixtures/blind', f))));
const answersStress = stressAnswers();
const stress = stressRuns(answersStress);

const d = new Diffs();
const t0 = performance.now();
const compare = !process.argv.includes('--no-compare');
const sets: [string, Run[]][] = [
  ['fixtures live', fixtures.live],
  ['fixtures printed', fixtures.printed],
  ['labeled live', labeled.live],
  ['labeled printed', labeled.printed],
  ['blind live', blind.live],
  ['blind printed', blind.printed],
  ['stress', stress],
  ['rl live', rl.live],
  ['rl printed', rl.printed],
];
const progress = (what: string): void => void process.stderr.write(`${((performance.now() - t0) / 1000).toFixed(1)} s ${what}\n`);
for (const [label, runs] of compare ? sets : []) {
  await compareRuns(d, A, B, label, runs);
  progress(`${label}: ${runs.length} runs`);
}
const runsCompared = sets.reduce((n, [, r]) => n + r.length, 0);

// Cross product over the distinct texts: every distinct answer × the sources of every distinct run.
const distinctRuns = [...fixtures.live, ...fixtures.printed, ...labeled.live, ...blind.live, ...stress.filter((_, i) => i % 6 === 0)];
// Distinct source sets only, without the two huge stress tools (they are in the per-run comparisons).
const big = new Set(['huge', 'longText']);
const sources = [...new Map(distinctRuns.map((r) => A.runSources.runSources(r as never, [])).map((s) => [ser(s), s])).values()].filter((s) => !s.tools.some((t) => big.has(t.toolName)));
const answers = [...new Set([...sources.map((s) => s.answer), ...answersStress.slice(0, 120)])];
if (compare) compareCross(d, A, B, 'cross', answers, sources);
progress(`cross product: ${answers.length} × ${sources.length}`);
const texts = [...new Set([...answers, ...answersStress, ...PIECES, ...DOCUMENTS, ...QUESTIONS, ...sources.map((s) => s.givenText)])];
if (compare) compareHelpers(d, A, B, texts, [...TOOLS.map((t) => [t]), TOOLS, ...sources.map((s) => s.tools)]);
progress('helpers');
const seconds = ((performance.now() - t0) / 1000).toFixed(1);

process.stdout.write(
  `runs compared: ${runsCompared} (${sets.map(([l, r]) => `${l} ${r.length}`).join(', ')}) × 3 scorers (claim-grounding, with context, answered) + runSources\n` +
    `cross product: ${answers.length} answers × ${sources.length} sources; helpers on ${texts.length} texts\n` +
    `comparisons: ${d.compared}, differences: ${d.found.length} (${seconds} s)\n`,
);
if (d.found.length > 0) {
  process.stdout.write(`${d.found.slice(0, 20).join('\n')}\n`);
  process.exit(1);
}

if (!process.argv.includes('--no-time')) {
  const distinct = [...fixtures.live, ...labeled.live];
  if (rl.live.length > 0) {
    const [a, b] = (await timeRuns([A, B], rl.live, passes, 1)) as [number, number];
    process.stdout.write(`real-library runs (${rl.live.length}, live): A ${a.toFixed(1)} µs/run, B ${b.toFixed(1)} µs/run, B/A ${(b / a).toFixed(3)} (median of ${passes})\n`);
  }
  const [a, b] = (await timeRuns([A, B], distinct, passes, Math.max(1, Math.round(3000 / distinct.length)))) as [number, number];
  process.stdout.write(`distinct-text runs (${distinct.length}, live): A ${a.toFixed(1)} µs/run, B ${b.toFixed(1)} µs/run, B/A ${(b / a).toFixed(3)} (median of ${passes})\n`);
}
