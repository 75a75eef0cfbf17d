/**
 * Claim grounding: are the specifics of the answer what the tools returned? Code only, no judge
 * (docs/scorers.md, `claim-grounding`). Precision first: it fails a run only when it is sure.
 *
 * - The answer is split into claims (sentences, lines, `;` clauses); each claim's specifics are extracted:
 *   numbers with units, money and percentages normalised (`$1,276.40` = 1276.4, `$625k`, `18°C`, `81%`),
 *   dates (relative ones from the run's day), times, identifiers, named entities, and status words with
 *   their negation (`not available`).
 * - Sources: the run's tool results walked as JSON key/value pairs, and its retrieved documents (plus the
 *   static `context`); the run's numbers are also read with the unit and scale of their keys and derived
 *   (`evidence.ts`). No tool result and no document → not applicable (`no-grounding-source`).
 * - Each specific is supported (a source holds it, normalised or derived), contradicted (the answer's words
 *   tie it to one slot, which holds another value, and nothing supports it), fabricated (an identifier that
 *   no tool result, document or input holds), unverified (anything else that cannot be checked: never a
 *   fail), or given (only the question, system prompt or tool arguments have it; not counted).
 * - score = 0 when anything is contradicted or fabricated; else 0.5 + 0.5 · supported / (supported +
 *   unverified), 1 when there is nothing to check. The default threshold 0.5 never fails an unverified
 *   answer; a stricter threshold (say 0.75) fails answers that are mostly unverified.
 */
import { createScorer } from '../../core/scorer.js';
import { notScorable } from '../../core/not-scorable.js';
import { classify, claimContext, type Classified, type GivenText } from './classify.js';
import { runSources } from './run-sources.js';
import { convert, Evidence, tolerance, written } from './evidence.js';
import { contentWords, groundingSources, stem, type GroundingSources } from './sources.js';
import { NEGATORS } from './vocabulary.js';
import { extractSpecifics, singular, type Specific } from './specifics.js';

export interface ClaimGroundingOptions {
  /** Static documents added to the sources. */
  context?: string[];
}


/** A specific in the result, with the source values it was compared with. */
export interface GroundingItem {
  kind: Specific['kind'];
  text: string;
  /** The normalised reading (`2025-12-31` for "yesterday", `1276.4 USD`). */
  reading: string;
  claim: string;
  sources: { source: string; path: string; value: string }[];
}

export interface ClaimGroundingResult {
  claims: string[];
  supported: GroundingItem[];
  contradicted: GroundingItem[];
  /** Identifiers (tracking and order numbers, ids, e-mails, URLs, phone numbers) in no source or input. */
  fabricated: GroundingItem[];
  /** Specifics that could not be checked either way: never a fail. */
  unverified: GroundingItem[];
  given: GroundingItem[];
}

/**
 * What the model was given. Only numbers, dates and times of it are compared (`classify`), so only those
 * are read; the lowercase and id forms are made when first asked for.
 */
class Given implements GivenText {
  readonly specifics: readonly Specific[];
  #text: string | undefined;
  #idText: string | undefined;
  constructor(
    private readonly raw: string,
    ref: string | undefined,
  ) {
    this.specifics = extractSpecifics(raw, { source: true, quantities: true, ...(ref ? { ref } : {}) }).specifics;
  }
  get text(): string {
    return (this.#text ??= this.raw.toLowerCase());
  }
  get idText(): string {
    return (this.#idText ??= this.raw.toUpperCase().replace(/[^A-Z0-9\n]/g, ''));
  }
}

function reading(s: Specific): string {
  switch (s.kind) {
    case 'number': {
      const unit = s.dim === 'duration' ? 'days' : (s.unit ?? s.noun ?? s.dim ?? '');
      return `${Number(s.value.toFixed(6))}${unit ? ` ${unit}` : ''}`;
    }
    case 'date':
      return s.day ?? (s.monthDay ? `--${s.monthDay}` : `weekday ${String(s.weekday)}`);
    case 'time':
      return `${String(Math.floor(s.minutes / 60)).padStart(2, '0')}:${String(s.minutes % 60).padStart(2, '0')}`;
    case 'id':
      return s.norm;
    case 'entity':
      return s.norm;
    case 'status':
      return `${s.negated ? 'not ' : ''}${[...new Set(s.terms.map((t) => `${t.negative ? 'not ' : ''}${t.canonical}`))].join('/')}`;
  }
}

function item(c: Classified, claims: readonly string[]): GroundingItem {
  return {
    kind: c.specific.kind,
    text: c.specific.text.trim(),
    reading: reading(c.specific),
    claim: claims[c.specific.claim] ?? '',
    sources: c.evidence.slice(0, 3).map((f) => ({ source: f.slot.source, path: f.slot.path, value: f.slot.shown })),
  };
}

/** `| a | b |` → ['a', 'b']. */
const cells = (line: string): string[] => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)+\|?\s*$/;

/**
 * Markdown tables as sentences: the header row names columns, not facts, so it is dropped, and each row
 * becomes one line of `column: cell` pairs, so a cell is read next to its column's name
 * (`Evanston, Units in stock: 14`) and with the row's own words.
 */
function tablesAsLines(answer: string): string {
  if (!answer.includes('|')) return answer;
  const lines = answer.split('\n');
  let header: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (i + 1 < lines.length && RULE.test(lines[i + 1] as string)) {
      header = cells(line);
      lines[i] = '';
      continue;
    }
    if (RULE.test(line)) {
      lines[i] = '';
      continue;
    }
    if (header && /^\s*\|.*\|\s*$/.test(line)) {
      const row = cells(line);
      lines[i] = `${row.map((c, j) => (j === 0 || !header?.[j] ? c : `${header[j]}: ${c}`)).join(', ')}.`;
    } else if (line.trim() === '') header = undefined;
  }
  return lines.join('\n');
}

/**
 * Check an answer against tool results and documents (the scorer's preprocess step, usable alone).
 *
 * @example
 * ```ts
 * const r = checkClaims('Order A-1009 shipped via FedEx.', [{ toolName: 'lookupOrder', result: { orderId: 'A-1009', status: 'shipped', carrier: 'DHL' } }], []);
 * r.contradicted.map((i) => i.text); // ['FedEx']
 * ```
 */
export function checkClaims(
  answer: string,
  tools: Parameters<typeof groundingSources>[0],
  documents: readonly string[],
  options: { day?: string; givenText?: string } = {},
): ClaimGroundingResult {
  const ref = options.day;
  const sources = groundingSources(tools, documents, ref);
  const { claims, specifics } = extractSpecifics(tablesAsLines(answer), ref ? { ref } : {});
  const given = new Given(options.givenText ?? '', ref);
  const ctx = claimContext(claims, sources, () => new Evidence(tools));
  const out: ClaimGroundingResult = { claims, supported: [], contradicted: [], fabricated: [], unverified: [], given: [] };
  const classified: Classified[] = [];
  for (const s of specifics) {
    const c = classify(s, sources, given, ctx);
    if (c.verdict !== 'ignored') classified.push(c);
  }
  checkConversions(classified, claims);
  for (const c of classified) if (c.verdict !== 'ignored') out[c.verdict].push(item(c, claims));
  for (const b of booleanClaims(claims, sources)) out[b.verdict].push(b.item);
  for (const item of noneClaims(claims, ctx.evidence)) out.contradicted.push(item);
  return out;
}

/** What may stand between a figure and its conversion: "15 lb (about 6.8 kg)", "170 km / 105 mi", "12 lb, or 5.4 kg". */
const CONVERSION_GAP = /^[\s(,/≈~=–—*_-]*(?:(?:which|that)(?:'s| is| works out to| comes to)?|or|i\.e\.|about|roughly|around|approximately|approx\.|nearly|almost|just under|just over|some)?[\s(,/≈~=–—*_-]*(?:about|roughly|around|approximately|approx\.|nearly|almost)?[\s*_(]*$/iu;

/**
 * A figure written twice in two units side by side ("15 lb, which is about 10.2 kg"): when the first is
 * supported and the second is not, the second is the first converted, and is contradicted when the conversion
 * is wrong by more than its rounding (5 % at least), supported when right.
 */
function checkConversions(classified: Classified[], claims: readonly string[]): void {
  const numbers = classified.filter((c) => c.specific.kind === 'number').sort((x, y) => x.specific.claim - y.specific.claim || x.specific.at - y.specific.at);
  for (let i = 0; i + 1 < numbers.length; i++) {
    const first = numbers[i] as Classified;
    const second = numbers[i + 1] as Classified;
    const a = first.specific;
    const b = second.specific;
    if (a.kind !== 'number' || b.kind !== 'number' || a.claim !== b.claim || first.verdict !== 'supported' || second.verdict !== 'unverified') continue;
    const wa = written(a);
    const wb = written(b);
    if (!wa.unit || !wb.unit || wa.unit === wb.unit || a.dim === 'money' || a.dim === 'duration') continue;
    const gap = (claims[a.claim] ?? '').slice(a.at + a.text.length, b.at);
    if (gap.length > 32 || !CONVERSION_GAP.test(gap)) continue;
    const expected = convert(wa.value, wa.unit, wb.unit);
    if (expected === undefined) continue;
    const slack = Math.max(tolerance(b, wb.value), Math.abs(expected) * (b.approx || /about|roughly|around|approx|nearly|almost|≈|~/iu.test(gap) ? 0.1 : 0.05));
    second.verdict = Math.abs(expected - wb.value) <= slack ? 'supported' : 'contradicted';
    second.evidence = first.evidence;
  }
}

/** "There are no active alerts", "no open tickets": `no`, up to two words, then a plural noun. */
const NONE = /\b(?:no|zero)\s+(?:[\p{L}-]+\s+){0,2}?([\p{L}]+s)\b/giu;

/**
 * A clause that says there are none of something while a tool returned a non-empty list of it ("no active
 * weather alerts" when `alerts` holds one): contradicted by the list. Only lists named by the noun, only when
 * exactly one such list is non-empty, and never in a clause that offers or asks.
 */
function noneClaims(claims: readonly string[], evidence: Evidence): GroundingItem[] {
  const out: GroundingItem[] = [];
  const lists = evidence.numbers.filter((e) => e.derived === 'length' && e.value > 0);
  if (lists.length === 0) return out;
  for (const claim of claims) {
    for (const clause of claim.split(BOOLEAN_CLAUSE)) {
      if (HYPOTHETICAL.test(clause.toLowerCase())) continue;
      for (const m of clause.matchAll(NONE)) {
        const noun = singular((m[1] as string).toLowerCase());
        const hit = lists.filter((e) => e.words[e.words.length - 1] === noun);
        if (hit.length !== 1) continue;
        const e = hit[0] as (typeof lists)[number];
        out.push({ kind: 'status', text: m[0], reading: `no ${noun}`, claim, sources: [{ source: e.source, path: e.path, value: `${e.value} item(s)` }] });
      }
    }
  }
  return out;
}

/** Key words a yes/no clause may say in other words (`signatureRequired`: "no signature is needed"). */
const SAME_STEMS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  [
    ['required', ['needed', 'need', 'necessary', 'must']],
    ['needed', ['required', 'necessary']],
    ['allowed', ['permitted']],
    ['permitted', ['allowed']],
  ].map(([k, v]) => [stem(k as string), new Set((v as string[]).map(stem))]),
);

/** The last word of a null slot that only points at the thing (`postmortem_url`): the thing is what is said. */
const POINTER_STEMS: ReadonlySet<string> = new Set(['url', 'link', 'id', 'at', 'date', 'time', 'ts', 'timestamp', 'number', 'ref'].map(stem));

/** Where a claim's clauses end for yes/no claims. */
const BOOLEAN_CLAUSE = /[;:]|,\s+|\s+(?:but|and|while|whereas|although|though)\s+/u;
/** A clause that offers, asks or supposes ("I can help you add…", "if you'd like", "would you…?") states nothing. */
const HYPOTHETICAL = /\b(?:can|could|would|might|may|if|whether|want|wants|wish|like|add|adding|consider|considering|option|offer|upgrade|recommend)\b|\?/u;

/** A state reached (`has been issued`, `was refunded`, `we've sent`): what a null slot says has not happened. */
const DONE = /\b(?:has|have|had|was|were|been|already)\b|'s been|'ve\b/u;
const COMPLETED = /\b(?:issued|processed|sent|paid|approved|completed|credited|refunded|received|scheduled|assigned|written|published|filed|submitted|shipped|delivered|resolved|posted|booked|confirmed|released)\b/u;

/** Whether a negator stands within four words before the first key word, between them, or in the three after ("X isn't included"). */
function negatedNear(words: readonly string[], hits: readonly number[]): boolean {
  const from = Math.max(0, Math.min(...hits) - 4);
  const to = Math.min(words.length - 1, Math.max(...hits) + 3);
  for (let i = from; i <= to; i++) {
    const w = words[i] as string;
    if (NEGATORS.has(w) || w.endsWith("n't")) return true;
  }
  return false;
}

/**
 * Claims about yes/no slots that are not known statuses: a clause naming every meaningful word of the key
 * (`breakfastIncluded` → "breakfast … included") asserts the slot, negated when a negator stands next to
 * those words. A null slot (`refund: null`) is contradicted by a clause that says its thing has happened
 * ("your refund has been issued") and supported by one that says it has not.
 */
function booleanClaims(claims: readonly string[], sources: GroundingSources): { item: GroundingItem; verdict: 'supported' | 'contradicted' }[] {
  const out: { item: GroundingItem; verdict: 'supported' | 'contradicted' }[] = [];
  type Slot = (typeof sources.booleans)[number];
  /** Whether the clause is about the slot, and negated; undefined when it is not about it. */
  const about = (b: Slot, lower: string, words: readonly string[], clauseTerms: () => readonly string[], isNull: boolean): { negated: boolean; span: number; shared: number } | undefined => {
    const hits: number[] = [];
    for (const s of b.stems) {
      // A null slot's pointer word (`postmortem_url`, `receipt_id`) is not said: "the postmortem was published".
      if (isNull && POINTER_STEMS.has(s) && b.stems.length > 1) continue;
      const same = SAME_STEMS.get(s);
      const i = words.findIndex((w) => {
        const x = stem(w.replace(/'s$/, ''));
        return x === s || (same !== undefined && same.has(x));
      });
      if (i < 0) return undefined;
      hits.push(i);
    }
    // A key that is a participle (`escalated`, `approved`) needs that very word: "escalate to …" asks, it does not state.
    for (const w of b.slot.keyWords) {
      if (w.length <= 4 || !w.endsWith('ed') || words.includes(w)) continue;
      const same = SAME_STEMS.get(stem(w));
      if (!same || !words.some((x) => same.has(stem(x)))) return undefined;
    }
    // One record of a list: the clause must name something of that record (its city, its date, its id).
    let shared = 0;
    if (/(?:^|\.)\d+(?:\.|$)/.test(b.slot.path)) {
      const record = sources.recordTerms.get(b.slot.group);
      shared = record ? clauseTerms().filter((w) => record.has(w)).length : 0;
      if (shared === 0) return undefined;
    }
    if (HYPOTHETICAL.test(lower)) return undefined;
    const negated = negatedNear(words, hits);
    if (isNull && !(COMPLETED.test(lower) && (DONE.test(lower) || negated))) return undefined;
    return { negated, span: Math.max(...hits) - Math.min(...hits), shared };
  };
  for (const claim of claims) {
    for (const clause of claim.split(BOOLEAN_CLAUSE)) {
      const lower = clause.toLowerCase();
      const words = lower.split(/[^\p{L}\p{N}']+/u).filter(Boolean);
      let terms: readonly string[] | undefined;
      const clauseTerms = (): readonly string[] => (terms ??= contentWords(lower));
      const found: { b: Slot; negated: boolean; span: number; shared: number }[] = [];
      for (const b of sources.booleans) {
        const r = about(b, lower, words, clauseTerms, false);
        if (r) found.push({ b, ...r });
      }
      for (const b of sources.nulls) {
        const r = about(b, lower, words, clauseTerms, true);
        if (r) found.push({ b, ...r });
      }
      // The most specific slots only, their words closest together: "curbside pickup" is about
      // `curbsidePickup`, not `inStorePickup` ("the Tempe store … pickup").
      const most = Math.max(0, ...found.map((f) => f.b.stems.length));
      const tight = Math.min(...found.filter((f) => f.b.stems.length === most).map((f) => f.span));
      // Of the records of one list, the one the clause names most.
      const pattern = (b: Slot): string => `${b.slot.source}\u0000${b.slot.path.replace(/\d+/g, '#')}`;
      const best = new Map<string, number>();
      for (const f of found) best.set(pattern(f.b), Math.max(best.get(pattern(f.b)) ?? 0, f.shared));
      // Any record of the list, with or without such a slot: "the signed proof of loss" is about
      // SIGNED_PROOF_OF_LOSS, whose `received_at` is set, not PROOF_OF_OWNERSHIP, whose is null.
      const namedMore = (b: Slot, shared: number): boolean => {
        if (shared === 0) return false;
        const list = b.slot.group.replace(/\d+/g, '#');
        for (const [group, record] of sources.recordTerms) {
          if (group === b.slot.group || group.replace(/\d+/g, '#') !== list) continue;
          if (clauseTerms().filter((w) => record.has(w)).length > shared) return true;
        }
        return false;
      };
      // Sibling slots of the same key in named objects (`individual.met`, `family.met`): the clause's own.
      const parentOf = (b: Slot): string | undefined => {
        const parts = b.slot.path.split('.');
        const parent = parts[parts.length - 2];
        return parent !== undefined && !/^\d+$/.test(parent) ? parent : undefined;
      };
      const parentNamed = (b: Slot): boolean => {
        const p = parentOf(b);
        return p !== undefined && contentWords(p.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ')).some((w) => clauseTerms().includes(w));
      };
      const siblings = (b: Slot): Slot[] => found.map((f) => f.b).filter((o) => o !== b && o.slot.source === b.slot.source && o.slot.path.split('.').pop() === b.slot.path.split('.').pop() && parentOf(o) !== undefined);
      for (const { b, negated, span, shared } of found) {
        if (b.stems.length < most || span > tight || shared < (best.get(pattern(b)) ?? 0) || namedMore(b, shared)) continue;
        const sibs = siblings(b);
        if (sibs.length > 0 && (!parentNamed(b) || sibs.some(parentNamed))) continue;
        out.push({
          item: { kind: 'status', text: clause.trim(), reading: `${negated ? 'not ' : ''}${b.slot.path}`, claim, sources: [{ source: b.slot.source, path: b.slot.path, value: b.slot.shown }] },
          verdict: negated === !b.value ? 'supported' : 'contradicted',
        });
      }
    }
  }
  return out;
}

/** The score of a result (see the module comment). */
export function claimGroundingScore(r: ClaimGroundingResult): number {
  if (r.contradicted.length > 0 || r.fabricated.length > 0) return 0;
  const checked = r.supported.length + r.unverified.length;
  return checked === 0 ? 1 : 0.5 + (0.5 * r.supported.length) / checked;
}

function describe(i: GroundingItem): string {
  const read = i.reading !== i.text.toLowerCase() && i.kind !== 'entity' ? ` (${i.reading})` : '';
  if (i.sources.length === 0) return `"${i.text}"${read}`;
  return `"${i.text}"${read} vs ${i.sources.map((s) => `${s.source}${s.path ? ` ${s.path}` : ''}: ${s.value}`).join(', ')}`;
}

/**
 * The explanation, what decided first: the contradictions (with the tool value beside them) and made-up
 * identifiers, then what could not be verified, then the counts.
 */
export function claimGroundingReason(r: ClaimGroundingResult, score: number): string {
  const shown = Math.round(score * 100) / 100;
  const parts: string[] = [];
  if (r.contradicted.length > 0) parts.push(`Contradicted by the tool results: ${r.contradicted.map(describe).join('; ')}.`);
  if (r.fabricated.length > 0) parts.push(`Not in any tool result, document or input (made up): ${r.fabricated.map(describe).join('; ')}.`);
  if (r.unverified.length > 0) parts.push(`Could not be verified: ${r.unverified.map(describe).join('; ')}.`);
  const n = r.supported.length + r.contradicted.length + r.fabricated.length + r.unverified.length;
  if (n === 0) parts.push('The answer states no specifics (numbers, dates, ids, names, statuses) to check.');
  else parts.push(`${r.supported.length} supported, ${r.contradicted.length} contradicted, ${r.fabricated.length} made up, ${r.unverified.length} unverified; score ${shown}.`);
  return parts.join(' ');
}

/**
 * Create the claim grounding scorer.
 *
 * @example
 * ```ts
 * const r = await createClaimGroundingScorer().run({ output: [assistantWithToolResult] });
 * r.preprocessStepResult; // { claims, supported, contradicted, unsupported, given }
 * ```
 */
export function createClaimGroundingScorer(options: ClaimGroundingOptions = {}) {
  const staticContext = options.context ?? [];
  return createScorer({
    id: 'claim-grounding-scorer',
    name: 'Claim Grounding Scorer',
    description: 'Specifics of the answer (numbers, dates, ids, names, statuses) checked against the tool results and documents',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const s = runSources(run, staticContext);
      if (s.tools.length === 0 && s.documents.length === 0 && s.failures.length === 0) return notScorable('no-grounding-source');
      // A failed call's error text is a source too: an honest answer reports it ("the service returned 503").
      return checkClaims(s.answer, s.tools, [...s.documents, ...s.failures], { givenText: s.givenText, ...(s.day ? { day: s.day } : {}) });
    })
    .generateScore(({ results }) => claimGroundingScore(results.preprocessStepResult))
    .generateReason(({ results, score }) => claimGroundingReason(results.preprocessStepResult, score));
}
