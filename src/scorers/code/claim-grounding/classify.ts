/**
 * Classifies each specific of an answer against the sources: **supported** (a source holds the same value),
 * **contradicted** (the slot the claim is about holds another value), **unsupported** (no source mentions
 * it), **given** (not in any source, but in the user's question, the system prompt or the tool arguments:
 * the model repeated it, it did not make it up) or **ignored** (a capitalised word that is probably not a name).
 *
 * Which slot a claim is about: among the facts that could support or contradict a specific, the ones whose
 * object shares most words with the claim (an order id, a product name, a city), and, among those, the ones
 * whose key is named next to the specific (`total`, `carrier`). Support wins inside that set.
 */
import { weekdayOf } from './dates.js';
import { currencyMismatch, numberSupport, numberTie, scaleSlip, transposedEvidence, unitMismatch, type Evidence, type NumberEvidence } from './evidence.js';
import type { Fact, GroundingSources } from './sources.js';
import { contentWords, letterOrDigit, stem } from './sources.js';
import type { DateSpecific, EntitySpecific, IdSpecific, NumberSpecific, Specific, StatusSpecific, TimeSpecific } from './specifics.js';
import { singular } from './specifics.js';
import { IMPLIES, STOP_WORDS } from './vocabulary.js';

export type Verdict = 'supported' | 'contradicted' | 'fabricated' | 'unverified' | 'given' | 'ignored';

export interface Classified {
  specific: Specific;
  verdict: Verdict;
  /** The facts behind the verdict (the slot values shown in the reason). */
  evidence: Fact[];
}

/** What the model was given rather than found: question, system prompt, tool arguments. */
export interface GivenText {
  /** Lowercase. */
  text: string;
  /** Uppercase without separators (ids). */
  idText: string;
  /** Its numbers, dates and times (the only kinds compared with it); other kinds may be absent. */
  specifics: readonly Specific[];
}

export interface ClaimContext {
  claims: readonly string[];
  /** Content words of claim `i`. */
  claimTerms(i: number): ReadonlySet<string>;
  /** Content words of the clause of claim `i` around offset `at` (see `ClauseWords`). */
  clauseTerms(i: number, at: number): ReadonlySet<string>;
  /** The sources' facts of each kind, in source order. */
  facts: FactsByKind;
  /** The run's numbers, direct and derived: read once per run, when a number is first checked. */
  readonly evidence: Evidence;
}

/** The facts of one kind, each with its specific narrowed to that kind. */
type KindFacts<S extends Specific> = readonly { fact: Fact; s: S }[];

export interface FactsByKind {
  number: KindFacts<NumberSpecific>;
  date: KindFacts<DateSpecific>;
  time: KindFacts<TimeSpecific>;
  id: KindFacts<IdSpecific>;
  entity: KindFacts<EntitySpecific>;
  status: KindFacts<StatusSpecific>;
}

function factsByKind(facts: readonly Fact[]): FactsByKind {
  const out = { number: [], date: [], time: [], id: [], entity: [], status: [] } as { [K in keyof FactsByKind]: { fact: Fact; s: Specific }[] };
  for (const fact of facts) out[fact.specific.kind].push({ fact, s: fact.specific });
  return out as unknown as FactsByKind;
}

/**
 * What every specific of one answer shares: its claims, their words (made when first asked for) and the
 * sources' facts by kind.
 */
export function claimContext(claims: readonly string[], sources: GroundingSources, evidence: () => Evidence): ClaimContext {
  let built: Evidence | undefined;
  const terms: (ReadonlySet<string> | undefined)[] = [];
  const clauses: (ClauseWords | undefined)[] = [];
  const claimAt = (i: number): string => (i >= 0 && i < claims.length ? (claims[i] as string) : '');
  return {
    claims,
    claimTerms: (i) => (terms[i] ??= new Set(contentWords(claimAt(i)))),
    clauseTerms: (i, at) => (clauses[i] ??= new ClauseWords(claimAt(i))).at(at),
    facts: factsByKind(sources.facts),
    get evidence() {
      return (built ??= evidence());
    },
  };
}

type Relevant = { fact: Fact; supports: boolean };

/** `,` `;` `(` `)`: where the words next to a specific stop. */
const isNearBreak = (c: number): boolean => c === 44 || c === 59 || c === 40 || c === 41;

/** The last three content words before `at` and the first two after the specific, within its phrase. */
function nearWords(claim: string, at: number, length: number): Set<string> {
  let from = Math.max(0, at - 40);
  for (let i = at - 1; i >= from; i--) {
    if (isNearBreak(claim.charCodeAt(i))) {
      from = i + 1;
      break;
    }
  }
  const after = at + length;
  let to = Math.min(claim.length, after + 30);
  for (let i = after; i < to; i++) {
    if (isNearBreak(claim.charCodeAt(i))) {
      to = i;
      break;
    }
  }
  const out = new Set<string>();
  for (const w of contentWords(claim.slice(from, at)).slice(-3)) out.add(w);
  for (const w of contentWords(claim.slice(after, to)).slice(0, 2)) out.add(w);
  return out;
}

/** Where clauses end: punctuation and "and" / "but" / "so". */
const CLAUSE_BREAK = /[,;:()—–]|\b(?:and|but|so|while|whereas)\b/giu;

/**
 * The clauses of one claim and their content words, read once for all the specifics of the claim. The
 * clause around offset `at` runs from the end of the last break before `at` to the next break.
 */
class ClauseWords {
  /** `[index, end]` of every break, in order. */
  readonly #breaks: (readonly [number, number])[] = [];
  /** Content words by clause start. */
  readonly #words = new Map<number, ReadonlySet<string>>();
  constructor(private readonly claim: string) {
    const re = CLAUSE_BREAK;
    re.lastIndex = 0;
    for (let m = re.exec(claim); m !== null; m = re.exec(claim)) this.#breaks.push([m.index, m.index + m[0].length]);
  }

  at(at: number): ReadonlySet<string> {
    let start = 0;
    let end = this.claim.length;
    for (const [index, stop] of this.#breaks) {
      if (index < at) start = stop;
      else {
        end = index;
        break;
      }
    }
    let words = this.#words.get(start);
    if (words === undefined) this.#words.set(start, (words = new Set(contentWords(this.claim.slice(start, end)))));
    return words;
  }
}

/**
 * How much a claim is about a fact's object: words shared with the object counted twice in the specific's
 * own clause and once in the whole claim, plus half a point when the fact's key is named next to it.
 */
function affinity(fact: Fact, around: Around, sources: GroundingSources): number {
  const group = sources.groupTerms.get(fact.slot.group);
  let score = 0;
  if (group) {
    for (const t of around.terms) if (group.has(t)) score += 1;
    for (const t of around.clause) if (group.has(t)) score += 2;
  }
  if (fact.slot.keyWords.some((w) => around.near.has(w))) score += 0.5;
  return score;
}

/** The words around one specific that `affinity` compares with each fact's object (computed once per specific). */
interface Around {
  terms: ReadonlySet<string>;
  clause: ReadonlySet<string>;
  near: ReadonlySet<string>;
}

function around(spec: Specific, ctx: ClaimContext): Around {
  const claim = ctx.claims[spec.claim] ?? '';
  return {
    terms: ctx.claimTerms(spec.claim),
    clause: ctx.clauseTerms(spec.claim, spec.at),
    near: nearWords(claim, spec.at, spec.text.length),
  };
}

/**
 * Specifics that name many different things (amounts, counts, dates, ids): another value in a slot only
 * contradicts them when the claim is visibly about that slot's object or key.
 */
function ambiguous(spec: Specific): boolean {
  if (spec.kind === 'number') return spec.dim === undefined || spec.dim === 'money' || spec.dim === 'count' || spec.dim === 'duration';
  return spec.kind === 'date' || spec.kind === 'id' || spec.kind === 'time' || spec.kind === 'entity';
}

function decide(spec: Specific, relevant: Relevant[], sources: GroundingSources, ctx: ClaimContext): { verdict: 'supported' | 'contradicted'; evidence: Fact[] } | undefined {
  if (relevant.length === 0) return undefined;
  // Support anywhere wins: a value some slot holds is never called a contradiction.
  const anySupport = relevant.filter((r) => r.supports);
  const words = around(spec, ctx);
  const scored = relevant.map((r) => ({ fact: r.fact, supports: r.supports, a: affinity(r.fact, words, sources) }));
  const max = Math.max(...scored.map((r) => r.a));
  const top = max > 0 ? scored.filter((r) => r.a === max) : scored;
  const support = top.filter((r) => r.supports);
  if (support.length > 0) return { verdict: 'supported', evidence: support.map((r) => r.fact) };
  if (anySupport.length > 0) return { verdict: 'supported', evidence: anySupport.map((r) => r.fact) };
  // A contradiction needs the answer's own words to tie the specific to one slot: the claim shares words with
  // the slot's object, and either names the slot's key next to the specific or leaves one slot to mean.
  if (max <= 0 && (ambiguous(spec) || top.every((r) => inList(r.fact)))) return undefined;
  const nearStems = new Set([...words.near].map(stem));
  const named = top.filter((r) => r.fact.slot.keyWords.some((w) => !UNIT_KEY_WORDS.has(w) && nearStems.has(stem(w))));
  const slots = new Set(top.map((r) => `${r.fact.slot.source}\u0000${r.fact.slot.path}`));
  if (named.length > 0) return { verdict: 'contradicted', evidence: named.map((r) => r.fact) };
  // Amounts, durations, counts, distances and weights combine in too many ways (a trip is the odometer's
  // difference less the allowance): only a named key ties them.
  if (spec.kind === 'number' && (spec.dim === undefined || spec.dim === 'money' || spec.dim === 'duration' || spec.dim === 'count' || spec.dim === 'length' || spec.dim === 'mass')) return undefined;
  const groups = new Set(top.map((r) => r.fact.slot.group)).size;
  if (slots.size === 1 && (max > 0 || groups === 1)) return { verdict: 'contradicted', evidence: top.map((r) => r.fact) };
  // Every slot of the one record the claim is about disagrees: a status (`available: false`, `stock: 0`) or a
  // written date (an invoice's paid and due dates). Amounts are not decided so: a record's other amounts
  // combine in too many ways.
  const writtenDate = spec.kind === 'date' && !RELATIVE.test(spec.text);
  if (max > 0 && groups === 1 && (spec.kind === 'status' || writtenDate)) return { verdict: 'contradicted', evidence: top.map((r) => r.fact) };
  return undefined;
}

/**
 * Two values of one record said the other way round ("pickup at Portland Jetport" when Portland Jetport is the
 * return location and the pickup is Boston Logan; "collision deductible $500" when $500 is comprehensive's):
 * the two slots are a pair (their keys share a word: `pickup_location` / `return_location`), the slot holding
 * the written value is named by none of its own words anywhere in the claim, while exactly one sibling,
 * holding another value, is named next to the specific by a word only its key has.
 */
function swappedSlot<S extends Specific>(spec: Specific, ctx: ClaimContext, facts: readonly { fact: Fact; s: S }[], holds: (s: S) => boolean): Fact | undefined {
  const holders = facts.filter(({ s }) => holds(s));
  if (holders.length === 0 || holders.length > 4) return undefined;
  const claim = ctx.claims[spec.claim] ?? '';
  const near = new Set([...nearWords(claim, spec.at, spec.text.length)].map(stem));
  const anywhere = new Set(contentWords(claim).map(stem));
  const meaningful = (w: string): boolean => w.length > 2 && !UNIT_KEY_WORDS.has(w) && !STOP_WORDS.has(w) && !GENERIC_KEY_WORDS.has(w);
  const own = (f: Fact, other: Fact): string[] => f.slot.keyWords.filter((w) => meaningful(w) && !other.slot.keyWords.includes(w));
  let found: Fact | undefined;
  for (const h of holders) {
    for (const { fact, s } of facts) {
      if (fact.slot.group !== h.fact.slot.group || fact === h.fact || holds(s)) continue;
      if (!fact.slot.keyWords.some((w) => h.fact.slot.keyWords.includes(w))) continue;
      const theirs = own(fact, h.fact);
      const mine = own(h.fact, fact);
      if (theirs.length === 0 || mine.length === 0 || mine.some((w) => anywhere.has(stem(w))) || !theirs.some((w) => near.has(stem(w)))) continue;
      if (found && found !== fact) return undefined;
      found = fact;
    }
  }
  return found;
}

/** A slot inside a list (`stores.1.status`): one of several records, which the claim must name. */
const inList = (f: Fact): boolean => /(?:^|\.)\d+(?:\.|$)/.test(f.slot.path);

/** Relative days and loose times of day: never a contradiction ("open 8 AM to 8 PM today"). */
const RELATIVE = /^(?:today|tonight|this (?:morning|afternoon|evening)|now)$/i;

/** A per-unit figure: "$35 more per seat", "$12 each", "$4/day", "a night". */
const PER_UNIT_AFTER = /^\s*(?:(?:more|less|extra|off)\s+)?(?:per\b|each\b|apiece\b|a (?:seat|ticket|night|day|month|person|head|item|unit|piece|hour|week|year)\b|\/\s*\p{L})/iu;

/** Key words that name no particular slot of a record (`accountId`, `totalValue`): never a swap by themselves. */
const GENERIC_KEY_WORDS: ReadonlySet<string> = new Set(['account', 'total', 'count', 'amount', 'value', 'name', 'type', 'status', 'code', 'label', 'number', 'level', 'state', 'current', 'item', 'detail']);

/** Key words that name a unit, not a thing: `pto_hours` does not tie "55 hours" to itself. */
const UNIT_KEY_WORDS: ReadonlySet<string> = new Set(['night', 'hour', 'hr', 'day', 'minute', 'min', 'second', 'sec', 'ms', 'week', 'month', 'year', 'cent', 'usd', 'eur', 'gbp', 'pct', 'percent', 'kg', 'lb', 'km', 'mi', 'mile', 'c', 'f', 'mb', 'gb', 'kb', 'ft', 'sqft', 'at', 'on', 'date', 'time', 'utc']);

const toF = (c: number): number => (c * 9) / 5 + 32;
const toC = (f: number): number => ((f - 32) * 5) / 9;

/** The source value in the answer's unit (temperatures converted), or undefined when they do not compare. */
function comparable(a: NumberSpecific, s: NumberSpecific): number | undefined {
  if (a.dim === undefined || s.dim === undefined) return s.value;
  if (a.dim !== s.dim) return undefined;
  if (a.dim === 'temperature' && a.unit && s.unit && a.unit !== s.unit) return a.unit === 'F' ? toF(s.value) : toC(s.value);
  if (a.dim === 'money' && a.unit && s.unit && a.unit !== s.unit) return undefined;
  if (a.dim === 'count' && a.noun && s.noun && a.noun !== s.noun) return undefined;
  return s.value;
}

/** Equal as written: within half the last written digit (18 for 18.4), or 10 % when the answer says "about". */
function sameValue(a: NumberSpecific, value: number): boolean {
  const step = 10 ** -a.decimals * a.factor * (a.scale ?? 1);
  const tolerance = a.approx ? Math.max(step, Math.abs(a.value) * 0.1) : step / 2 + 1e-9;
  return Math.abs(a.value - value) <= tolerance;
}

/** Whether a number slot is about the same quantity (same dimension, and for counts the same thing). */
function sameQuantity(a: NumberSpecific, s: NumberSpecific, fact: Fact): boolean {
  if (a.dim === undefined || s.dim === undefined || a.dim !== s.dim) return false;
  if (a.dim === 'count') return a.noun !== undefined && (s.noun === a.noun || fact.slot.keyWords.includes(a.noun));
  if (a.dim === 'money' && a.unit && s.unit && a.unit !== s.unit) return false;
  return true;
}

/** Two facts whose sum, difference or (amount × count, same result) is the answer's value. */
function derivedSupport(a: NumberSpecific, nums: KindFacts<NumberSpecific>): Fact[] | undefined {
  const same = nums.filter(({ s }) => s.dim === a.dim && comparable(a, s) !== undefined).slice(0, 40);
  for (let i = 0; i < same.length; i++) {
    for (let j = i + 1; j < same.length; j++) {
      const x = same[i] as { fact: Fact; s: NumberSpecific };
      const y = same[j] as { fact: Fact; s: NumberSpecific };
      const vx = comparable(a, x.s) as number;
      const vy = comparable(a, y.s) as number;
      if (sameValue(a, vx + vy) || sameValue(a, Math.abs(vx - vy))) return [x.fact, y.fact];
    }
  }
  const counts = nums.filter(({ s }) => s.dim === 'count' && Number.isInteger(s.value) && s.value > 1).slice(0, 20);
  for (const x of same) {
    for (const c of counts) {
      if (c.fact.slot.source !== x.fact.slot.source) continue;
      if (sameValue(a, (comparable(a, x.s) as number) * c.s.value)) return [x.fact, c.fact];
    }
  }
  return undefined;
}

/**
 * Whether `text` has `value` written as a number (`(?<![\d.])value(?![\d])`, with `value` as `String` writes
 * it and its first `.` escaped, the rest read as a pattern: `1e+21` is a pattern).
 */
function writesNumber(text: string, value: number): boolean {
  const written = String(value);
  // Plain digits (the common case) are a literal: no match without the substring.
  if (/^-?\d+(?:\.\d+)?$/.test(written) && !text.includes(written)) return false;
  return new RegExp(`(?<![\\d.])${written.replace('.', '\\.')}(?![\\d])`).test(text);
}

/** A tied slot of the evidence as a fact, for the reason. */
function tieFact(e: NumberEvidence): Fact {
  const specific: NumberSpecific = { kind: 'number', text: String(e.value), claim: 0, at: 0, decimals: 0, approx: false, value: e.value, factor: 1 };
  return { specific, slot: { source: e.source, path: e.path, keyWords: e.words, group: e.source, shown: JSON.stringify(e.value), exclusive: false } };
}

function classifyNumber(a: NumberSpecific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  const nums = ctx.facts.number;
  // Amounts only: quantities of one record are said together too often ("11.8 GB used of your 15 GB").
  const swapped = a.dim !== 'money' ? undefined : swappedSlot(a, ctx, nums, (s) => (s.dim === undefined || s.dim === 'count' || (s.dim === 'money' && (!s.unit || !a.unit || s.unit === a.unit))) && sameValue(a, s.value));
  if (swapped) return { specific: a, verdict: 'contradicted', evidence: [swapped] };
  // Any number of the run, normalised (sign, scale, unit, rounding) or derived, that is the written value.
  const backed = numberSupport(a, ctx.evidence, ctx.claimTerms(a.claim));
  if (backed) {
    const slot = nums.find(({ fact }) => fact.slot.source === backed.source && fact.slot.path === backed.path);
    return { specific: a, verdict: 'supported', evidence: slot ? [slot.fact] : [] };
  }
  const relevant: Relevant[] = [];
  for (const { fact, s: n } of nums) {
    const v = comparable(a, n);
    if (v !== undefined && sameValue(a, v) && (a.dim === undefined || n.dim === undefined || a.dim === n.dim)) relevant.push({ fact, supports: true });
    else if (sameQuantity(a, n, fact)) relevant.push({ fact, supports: false });
  }
  // Derived values: a sum or difference of two slots of the same quantity, or an amount times a count in one result.
  if (!relevant.some((r) => r.supports) && a.dim !== undefined && a.dim !== 'count') {
    const derived = derivedSupport(a, nums);
    if (derived) return { specific: a, verdict: 'supported', evidence: derived };
  }
  // "in 3 days" is also the day it names.
  if (a.day !== undefined) {
    const d = ctx.facts.date.find(({ s }) => s.day === a.day);
    if (d) return { specific: a, verdict: 'supported', evidence: [d.fact] };
  }
  // A slot whose own value the claim writes elsewhere ("62% of the 55-liter tank is about 34 liters") is
  // that other number's: it says nothing against this one.
  const claimText = ctx.claims[a.claim] ?? '';
  // "$35 more per seat", "$12 each": a per-unit figure, derived from a total in ways no slot shows; only a slot
  // that is itself per that unit (`limitPerPerson` for "$50k per person") still ties it.
  const per = a.dim === 'money' ? PER_UNIT_AFTER.exec(claimText.slice(a.at + a.text.length)) : null;
  const unitWord = per ? singular((/(\p{L}+)\s*$/u.exec(per[0])?.[1] ?? '').toLowerCase()) : '';
  const perSlot = (words: readonly string[]): boolean => !per || (unitWord !== '' && words.includes(unitWord));
  // "1 therm ≈ 29.3 kWh": the right side of an approximate equivalence is a conversion factor, no slot's value.
  if (/\d[^\d.!?]{0,16}[≈~]\s*$/u.test(claimText.slice(0, a.at))) return { specific: a, verdict: 'unverified', evidence: [] };
  const unused = relevant.filter((r) => r.supports || (perSlot(r.fact.slot.keyWords) && !(writesNumber(claimText, (r.fact.specific as NumberSpecific).value) || claimText.includes(r.fact.specific.text))));
  const decided = decide(a, unused, sources, ctx);
  if (decided) return { specific: a, ...decided };
  if (a.dim === undefined && writesNumber(sources.text, a.value)) {
    return { specific: a, verdict: 'supported', evidence: [] };
  }
  const otherCurrency = currencyMismatch(a, ctx.evidence) ?? unitMismatch(a, ctx.evidence);
  if (otherCurrency) return { specific: a, verdict: 'contradicted', evidence: [tieFact(otherCurrency)] };
  // Nothing supports it: contradicted when the claim names one slot's key next to it.
  const found = numberTie(a, ctx.evidence, nearWords(claimText, a.at, a.text.length), ctx.claimTerms(a.claim), claimText);
  const tie = found && perSlot(found.words) ? found : undefined;
  if (tie && !given.specifics.some((g) => g.kind === 'number' && sameValue(a, g.value))) {
    return { specific: a, verdict: 'contradicted', evidence: [tieFact(tie)] };
  }
  if (a.dim === undefined && writesNumber(sources.text, a.value)) {
    return { specific: a, verdict: 'supported', evidence: [] };
  }
  if (given.specifics.some((g) => g.kind === 'number' && sameValue(a, g.value))) return { specific: a, verdict: 'given', evidence: [] };
  // A slip of the pen: two digits swapped (1926 → 1962, 52 → 25) or one digit wrong (342 → 348) in a number
  // of the record the claim is about.
  const slip = nearMiss(a, ctx, sources);
  if (slip) return { specific: a, verdict: 'contradicted', evidence: [slip] };
  return { specific: a, verdict: 'unverified', evidence: [] };
}

/** The digits of a number as written at `decimals` places. */
const digitsAt = (v: number, decimals: number): string => Math.abs(v).toFixed(Math.max(0, Math.min(decimals, 6))).replace('.', '');

/** Two digit strings one adjacent swap apart, or (three digits or more) one digit apart. */
function slipped(x: string, y: string): boolean {
  if (x.length !== y.length || x === y || x.length < 2) return false;
  const diff: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) diff.push(i);
  if (diff.length === 2 && diff[1] === (diff[0] as number) + 1 && x[diff[0] as number] === y[diff[1]] && x[diff[1]] === y[diff[0] as number]) return true;
  return diff.length === 1 && x.length >= 3;
}

function nearMiss(a: NumberSpecific, ctx: ClaimContext, sources: GroundingSources): Fact | undefined {
  const mine = digitsAt(a.dim === 'duration' || a.dim === 'length' || a.dim === 'mass' || a.dim === 'speed' ? a.value / a.factor : a.value / (a.scale ?? 1), a.decimals);
  const words = around(a, ctx);
  const claimText = ctx.claims[a.claim] ?? '';
  for (const { fact, s } of ctx.facts.number) {
    // A slot the claim states elsewhere is another number's ("300 km per day × 3 days = 900 km").
    if (writesNumber(claimText, s.value) || claimText.includes(s.text)) continue;
    if (a.dim !== undefined && s.dim !== undefined && a.dim !== s.dim) continue;
    if (a.dim === 'money' && a.unit && s.unit && a.unit !== s.unit) continue;
    const v = comparable(a, s);
    if (v === undefined) continue;
    const theirs = digitsAt(a.dim === 'duration' || a.dim === 'length' || a.dim === 'mass' || a.dim === 'speed' ? v / a.factor : v / (a.scale ?? 1), a.decimals);
    if (!slipped(mine, theirs)) continue;
    if (affinity(fact, words, sources) > 0 || mine.length >= 4) return fact;
  }
  // A year written wrong: "since June 2012" for 2021-06-14.
  if (a.dim === undefined && Number.isInteger(a.value) && a.value >= 1900 && a.value <= 2100) {
    for (const { fact, s } of ctx.facts.date) if (s.day !== undefined && slipped(mine, s.day.slice(0, 4)) && affinity(fact, words, sources) > 0) return fact;
  }
  // Derived values (2 nights × €184 = €368 written €386; a total one digit off): two adjacent digits swapped
  // (three digits or more), or one digit wrong (four or more).
  if (mine.length >= 3) {
    const e = transposedEvidence(a, ctx.evidence, mine);
    if (e) return tieFact(e);
  }
  // An amount off by a power of ten ($1,562.00 for 1562000 cents = $15,620).
  const scaled = scaleSlip(a, ctx.evidence);
  if (scaled) return tieFact(scaled);
  return undefined;
}

/** The days a tool date may be written as: a UTC instant's local date is its zone's (the one the tools name), else any of the three days around it. */
function daysOf(b: DateSpecific, zone: string | undefined): readonly string[] {
  if (b.utcAt === undefined || b.day === undefined) return b.day === undefined ? [] : [b.day];
  if (zone !== undefined) {
    const local = formatIn(zone, 'day').format(new Date(b.utcAt));
    return [local];
  }
  const at = Date.parse(`${b.day}T00:00:00Z`);
  return [b.day, new Date(at - 86_400_000).toISOString().slice(0, 10), new Date(at + 86_400_000).toISOString().slice(0, 10)];
}

function dateMatches(a: DateSpecific, b: DateSpecific, zone?: string): boolean {
  if (b.utcAt !== undefined) return daysOf(b, zone).some((day) => dateMatches(a, { ...b, day, utcAt: undefined }));
  if (a.day !== undefined) return b.day === a.day || (b.monthDay !== undefined && a.day.slice(5) === b.monthDay);
  if (a.monthDay !== undefined) return (b.day !== undefined && b.day.slice(5) === a.monthDay) || b.monthDay === a.monthDay;
  if (a.weekday !== undefined) return (b.day !== undefined && weekdayOf(b.day) === a.weekday) || b.weekday === a.weekday;
  return false;
}

function classifyDate(a: DateSpecific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  // The tools' zone, unless the claim speaks UTC (then the UTC date, or either of the days around it).
  const zone = /\b(?:utc|gmt|zulu)\b/i.test(ctx.claims[a.claim] ?? '') ? undefined : toolZone(sources.text);
  // "Friday, November 19" when November 19 is a Thursday: the weekday contradicts the date it is written with
  // (the year from the date itself, else from the source date it matches).
  if (a.stated !== undefined) {
    const match = ctx.facts.date.find(({ s }) => s.day !== undefined && dateMatches(a, s, zone));
    // The claim's own date, its year from the source date it matches when it has none.
    const day = a.day ?? (match?.s.day !== undefined && a.monthDay !== undefined ? `${match.s.day.slice(0, 4)}-${a.monthDay}` : match?.s.day);
    if (day !== undefined && weekdayOf(day) !== a.stated) return { specific: a, verdict: 'contradicted', evidence: match ? [match.fact] : [] };
  }
  const swapped = a.day !== undefined || a.monthDay !== undefined ? swappedSlot(a, ctx, ctx.facts.date, (s) => dateMatches(a, s, zone)) : undefined;
  if (swapped) return { specific: a, verdict: 'contradicted', evidence: [swapped] };
  const relevant: Relevant[] = [];
  for (const { fact, s } of ctx.facts.date) {
    // A bare weekday can only disagree with a full date.
    if (a.weekday !== undefined && s.day === undefined && s.weekday === undefined) continue;
    relevant.push({ fact, supports: dateMatches(a, s, zone) });
  }
  const decided = decide(a, relevant, sources, ctx);
  if (decided && !(decided.verdict === 'contradicted' && RELATIVE.test(a.text.trim()))) return { specific: a, ...decided };
  if (given.specifics.some((g) => g.kind === 'date' && dateMatches(a, g))) return { specific: a, verdict: 'given', evidence: [] };
  return { specific: a, verdict: 'unverified', evidence: [] };
}

function classifyTime(a: TimeSpecific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  const relevant: Relevant[] = ctx.facts.time.map(({ fact, s }) => ({ fact, supports: s.minutes === a.minutes }));
  if (!relevant.some((r) => r.supports)) {
    // A time shifted by a duration the sources give (departure 09:40 + a 45-minute delay = 10:25).
    const shifts = ctx.facts.number.filter(({ s }) => s.dim === 'duration' && s.value < 1);
    for (const t of ctx.facts.time) {
      for (const d of shifts) {
        const minutes = Math.round(d.s.value * 1440);
        const base = t.s.minutes;
        if ((base + minutes) % 1440 === a.minutes || (base - minutes + 1440) % 1440 === a.minutes) return { specific: a, verdict: 'supported', evidence: [t.fact, d.fact] };
      }
    }
  }
  const decided = decide(a, relevant, sources, ctx);
  // A time the sources give in UTC (or with an offset) may be written in local time: contradicted only when
  // the claim says UTC too, or names the one time zone the tools give (`"timezone": "America/Denver"`,
  // "3:30 PM Mountain Time") and is that zone's time of none of the tied timestamps.
  const utc = (f: Fact): boolean => /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z"?$/.test(f.slot.shown);
  const claim = ctx.claims[a.claim] ?? '';
  const saysUtc = /\b(?:utc|gmt|zulu)\b|\d[zZ]\b/i.test(claim);
  const zone = toolZone(sources.text);
  if (zone !== undefined) {
    const local = ctx.facts.time.find(({ fact }) => localMinutes(fact.slot.shown, zone) === a.minutes);
    if (local) return { specific: a, verdict: 'supported', evidence: [local.fact] };
  }
  if (decided?.verdict === 'contradicted' && !saysUtc && decided.evidence.some(utc)) {
    if (zone !== undefined && namesZone(claim, zone)) return { specific: a, ...decided };
    return { specific: a, verdict: 'unverified', evidence: decided.evidence };
  }
  if (decided) return { specific: a, ...decided };
  if (given.specifics.some((g) => g.kind === 'time' && g.minutes === a.minutes)) return { specific: a, verdict: 'given', evidence: [] };
  return { specific: a, verdict: 'unverified', evidence: [] };
}

/** The one IANA time zone the tools name (`America/Denver`), if exactly one; the last run's answer is kept. */
const ZONE_OF_TEXT = new Map<string, string | undefined>();
function toolZone(text: string): string | undefined {
  if (ZONE_OF_TEXT.has(text)) return ZONE_OF_TEXT.get(text);
  const zone = findZone(text);
  if (ZONE_OF_TEXT.size >= 16) ZONE_OF_TEXT.clear();
  ZONE_OF_TEXT.set(text, zone);
  return zone;
}

/** `Intl.DateTimeFormat`s are costly to make: one per zone and purpose, kept. */
const FORMATS = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string, kind: 'day' | 'time' | 'short' | 'long' | 'shortGeneric' | 'longGeneric'): Intl.DateTimeFormat {
  const key = `${zone}|${kind}`;
  let f = FORMATS.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'day' ? { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' } : kind === 'time' ? { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { timeZone: zone, timeZoneName: kind };
    f = new Intl.DateTimeFormat(kind === 'day' ? 'en-CA' : 'en-US', options);
    FORMATS.set(key, f);
  }
  return f;
}

function findZone(text: string): string | undefined {
  if (!text.includes('/')) return undefined;
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:africa|america|asia|atlantic|australia|europe|pacific|indian)\/[a-z_]+(?:\/[a-z_]+)?\b/giu)) {
    const name = m[0].split('/').map((p) => p.split('_').map((w) => (w.length > 0 ? (w[0] as string).toUpperCase() + w.slice(1) : w)).join('_')).join('/');
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      found.add(name);
    } catch {
      // not a zone this runtime knows
    }
    if (found.size > 1) return undefined;
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** Minutes past midnight, in `zone`, of the ISO timestamp a slot shows (`"2026-06-12T22:30:00Z"`). */
function localMinutes(shown: string, zone: string): number | undefined {
  const iso = /"?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))"?$/.exec(shown)?.[1];
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return undefined;
  const parts = formatIn(zone, 'time').formatToParts(new Date(ms));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value);
  return Number.isFinite(hour) && Number.isFinite(minute) ? hour * 60 + minute : undefined;
}

/** The ways a zone is named ("MDT", "MT", "Mountain"), as patterns, made once per zone. */
const ZONE_NAMES = new Map<string, RegExp[]>();
function zoneNames(zone: string): RegExp[] {
  let out = ZONE_NAMES.get(zone);
  if (out) return out;
  const names = new Set<string>();
  for (const style of ['short', 'long', 'shortGeneric', 'longGeneric'] as const) {
    for (const at of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15)]) {
      const n = formatIn(zone, style).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value;
      if (n && !/^GMT/.test(n)) names.add(style === 'short' || style === 'shortGeneric' ? n : (n.split(' ')[0] as string));
    }
  }
  out = [...names].map((n) => new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, n.length <= 4 ? 'u' : 'iu'));
  ZONE_NAMES.set(zone, out);
  return out;
}

/** Whether the claim names `zone` ("Mountain Time", "MDT", "local time"). */
function namesZone(claim: string, zone: string): boolean {
  return /\blocal(?:ly)?\b/i.test(claim) || zoneNames(zone).some((re) => re.test(claim));
}

/** Ids that name one thing each: made up, they send a user to the wrong parcel, ticket or address. */
function identifies(a: IdSpecific): boolean {
  if (a.shape === 'url' || a.shape === 'email' || a.shape === 'phone') return true;
  return a.norm.length >= 5 && /\d/.test(a.norm);
}

/** A URL without scheme, `www.`, trailing slash or punctuation. */
const bareUrl = (u: string): string => u.toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/[/.,;:!?)]+$/, '');

/** Digits only, for phone numbers (`+1 (555) 010-7788` is `15550107788`). */
const digitsOf = (s: string): string => s.replace(/\D/g, '');

function classifyId(a: IdSpecific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  const relevant: Relevant[] = [];
  for (const { fact, s } of ctx.facts.id) {
    if (s.norm === a.norm) relevant.push({ fact, supports: true });
    else if (a.shape === 'url' && s.shape === 'url' && bareUrl(s.norm) === bareUrl(a.norm)) relevant.push({ fact, supports: true });
    else if (a.shape === 'phone' && s.shape === 'phone' && sameNumber(digitsOf(s.norm), digitsOf(a.norm))) relevant.push({ fact, supports: true });
    else if (s.shape === a.shape && a.shape !== 'url' && a.shape !== 'email') relevant.push({ fact, supports: false });
  }
  if (!relevant.some((r) => r.supports)) {
    const upper = a.norm.toUpperCase();
    if (a.norm.length >= 4 && sources.idText.includes(upper)) return { specific: a, verdict: 'supported', evidence: [] };
    if (a.shape === 'url' && sources.text.includes(bareUrl(a.norm))) return { specific: a, verdict: 'supported', evidence: [] };
    if (a.shape === 'email' && sources.text.includes(a.norm.toLowerCase())) return { specific: a, verdict: 'supported', evidence: [] };
    if (a.shape === 'phone' && digitsOf(a.norm).length >= 7 && sources.idText.replace(/[^0-9\n]/g, '').includes(digitsOf(a.norm).slice(-7))) return { specific: a, verdict: 'supported', evidence: [] };
    if (given.idText.includes(upper) || given.text.includes(a.norm.toLowerCase())) return { specific: a, verdict: 'given', evidence: [] };
  }
  const decided = decide(a, relevant, sources, ctx);
  if (decided?.verdict === 'supported') return { specific: a, ...decided };
  // An identifier that no tool result, document or input holds was made up.
  if (identifies(a)) return { specific: a, verdict: 'fabricated', evidence: decided?.evidence ?? [] };
  if (decided) return { specific: a, ...decided };
  return { specific: a, verdict: 'unverified', evidence: [] };
}

/** Two phone numbers that are the same with or without a country code. */
function sameNumber(x: string, y: string): boolean {
  if (x.length < 7 || y.length < 7) return x === y;
  return x.endsWith(y) || y.endsWith(x);
}

/** The code point that ends just before `i`, as a `u` lookbehind reads it (a surrogate pair is one). */
function codePointBefore(text: string, i: number): number {
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

/**
 * `norm` in `text` between boundaries: `(?<![\p{L}\p{N}])norm(?![\p{L}\p{N}])` with the `u` flag, `norm`
 * literal. `norm` is a name (whole code points, starting with a letter), so a match never starts or ends
 * inside a surrogate pair.
 */
function mentions(text: string, norm: string): boolean {
  for (let from = 0; from <= text.length; ) {
    const i = text.indexOf(norm, from);
    if (i < 0) return false;
    const end = i + norm.length;
    if (!(i > 0 && letterOrDigit(codePointBefore(text, i))) && !(end < text.length && letterOrDigit(text.codePointAt(end) as number))) return true;
    from = i + 1;
  }
  return false;
}

/** Time zones and clock words: capitalised, but not names to check. */
const ZONES: ReadonlySet<string> = new Set(['utc', 'gmt', 'bst', 'cet', 'cest', 'eet', 'eest', 'wet', 'west', 'est', 'edt', 'cst', 'cdt', 'mst', 'mdt', 'pst', 'pdt', 'akst', 'akdt', 'hst', 'ist', 'jst', 'kst', 'aest', 'aedt', 'acst', 'awst', 'nzst', 'nzdt', 'sgt', 'hkt', 'z', 'am', 'pm', 'eastern', 'central', 'pacific', 'mountain', 'local']);

function classifyEntity(a: EntitySpecific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  if (ZONES.has(a.norm)) return { specific: a, verdict: 'ignored', evidence: [] };
  // A label ("Event: Departed", a table's column as the table is read): not a claim about anything.
  if (/^\s*:/u.test((ctx.claims[a.claim] ?? '').slice(a.at + a.text.length))) return { specific: a, verdict: 'ignored', evidence: [] };
  const swapped = swappedSlot(a, ctx, ctx.facts.entity, (s) => s.norm === a.norm);
  if (swapped) return { specific: a, verdict: 'contradicted', evidence: [swapped] };
  if (mentions(sources.text, a.norm)) {
    const evidence = ctx.facts.entity.filter(({ s }) => s.norm === a.norm).map(({ fact }) => fact);
    return { specific: a, verdict: 'supported', evidence };
  }
  const words = a.norm.split(' ').filter((w) => w.length >= 3);
  if (words.length > 1 && words.every((w) => mentions(sources.text, w))) return { specific: a, verdict: 'supported', evidence: [] };
  // A capitalised sentence start no source has is probably an ordinary word: neither counted nor contradicted.
  if (a.weak && a.cls === undefined) return { specific: a, verdict: mentions(given.text, a.norm) ? 'given' : 'ignored', evidence: [] };
  // Contradicted: a slot holds another name of the same class (a carrier, a city), or the claim names the slot's key.
  const near = nearWords(ctx.claims[a.claim] ?? '', a.at, a.text.length);
  const relevant: Relevant[] = [];
  // Tied by a key word alone, a name is compared only with a name: not an acronym or unit of the answer
  // ("50 GB of priority data"), not an UPPER_CASE enum of the tools (statuses have their own rules).
  const acronym = /^\p{Lu}{1,4}$/u.test(a.text);
  for (const { fact, s } of ctx.facts.entity) {
    if (s.norm === a.norm) continue;
    const named = !acronym && !/^[\p{Lu}\d_-]+$/u.test(s.text) && fact.slot.keyWords.some((w) => w.length > 3 && w !== 'name' && near.has(w));
    if ((a.cls !== undefined && (s.cls === a.cls || fact.slot.keyWords.includes(a.cls))) || (named && fact.slot.path !== '' && !/\d/.test(s.norm))) {
      relevant.push({ fact, supports: false });
    }
  }
  // A name that shares a word with a slot's name but is another name: "Storm Shell Jacket" for "Nimbus Rain Jacket".
  const claimText = ctx.claims[a.claim] ?? '';
  const sentenceStart = /(?:^|[.!?:]\s+|^[\s*•#>|-]+)$/u.test(claimText.slice(0, a.at));
  if (relevant.length === 0 && words.length > 1 && !sentenceStart) {
    for (const { fact, s } of ctx.facts.entity) {
      if (fact.slot.path === '' || s.norm.split(' ').length < 2) continue;
      const theirs = new Set(s.norm.split(' ').filter((w) => w.length >= 3 && !STOP_WORDS.has(w)));
      if (words.some((w) => theirs.has(w))) relevant.push({ fact, supports: false });
    }
  }
  if (relevant.length === 0 || mentions(given.text, a.norm)) {
    if (mentions(given.text, a.norm)) return { specific: a, verdict: 'given', evidence: [] };
    return { specific: a, verdict: a.weak ? 'ignored' : 'unverified', evidence: [] };
  }
  const decided = decide(a, relevant, sources, ctx);
  return { specific: a, ...(decided ?? { verdict: 'unverified', evidence: [] }) };
}

/** Whether a source status fact agrees with the claim's reading, disagrees, or says nothing about it. */
function statusRelation(claimCanonical: string, claimAsserts: boolean, fact: Fact): 'supports' | 'contradicts' | undefined {
  const s = fact.specific as StatusSpecific;
  let out: 'supports' | 'contradicts' | undefined;
  for (const t of s.terms) {
    const asserts = t.negative === s.negated;
    const implied = asserts && (IMPLIES[t.canonical] ?? []).includes(claimCanonical);
    let r: 'supports' | 'contradicts' | undefined;
    if (t.canonical === claimCanonical || implied) r = asserts === claimAsserts || (implied && claimAsserts) ? 'supports' : 'contradicts';
    else if (fact.slot.exclusive && asserts) r = claimAsserts ? 'contradicts' : 'supports';
    if (r === 'supports') return r;
    out ??= r;
  }
  return out;
}

/** A status after a modal or `to` ("can be returned", "will be shipped", "want to cancel") is a possibility, not a state. */
const MODAL_BEFORE = /\b(?:can|could|may|might|will|would|should|must|to|if|once|when|until|before|after)\s+(?:(?:not|still|also|only|then|now|soon|be|get|have|been|being)\s+){0,3}$/iu;

function classifyStatus(a: StatusSpecific, sources: GroundingSources, ctx: ClaimContext): Classified {
  if (MODAL_BEFORE.test((ctx.claims[a.claim] ?? '').slice(0, a.at))) return { specific: a, verdict: 'unverified', evidence: [] };
  const relevant: Relevant[] = [];
  for (const { fact, s } of ctx.facts.status) {
    for (const reading of a.terms) {
      if (!s.terms.some((t) => t.family === reading.family)) continue;
      const rel = statusRelation(reading.canonical, reading.negative === a.negated, fact);
      if (rel) relevant.push({ fact, supports: rel === 'supports' });
    }
  }
  const decided = decide(a, relevant, sources, ctx);
  if (decided) return { specific: a, ...decided };
  return { specific: a, verdict: 'unverified', evidence: [] };
}

/** Classify one specific. */
export function classify(spec: Specific, sources: GroundingSources, given: GivenText, ctx: ClaimContext): Classified {
  switch (spec.kind) {
    case 'number':
      return classifyNumber(spec, sources, given, ctx);
    case 'date':
      return classifyDate(spec, sources, given, ctx);
    case 'time':
      return classifyTime(spec, sources, given, ctx);
    case 'id':
      return classifyId(spec, sources, given, ctx);
    case 'entity':
      return classifyEntity(spec, sources, given, ctx);
    case 'status':
      return classifyStatus(spec, sources, ctx);
  }
}
