/**
 * Claim grounding: are the specifics of the answer what the tools returned? Code only, no judge
 * (docs/scorers.md, `claim-grounding`).
 *
 * - The answer is split into claims (sentences, lines, `;` clauses); each claim's specifics are extracted:
 *   numbers with units, money and percentages normalised (`$1,276.40` = 1276.4, `18°C` = 18 °C, `81%`),
 *   dates (relative ones from the run's day), times, identifiers, named entities, and status words with
 *   their negation (`not available`).
 * - Sources: the run's tool results walked as JSON key/value pairs, and its retrieved documents (plus the
 *   static `context`). No tool result and no document → not applicable (`no-grounding-source`).
 * - Each specific is supported, contradicted (the slot the claim is about holds another value: status
 *   shipped vs "cancelled", carrier DHL vs "FedEx", `available: true` vs "not available", 3 vs "6 months"),
 *   unsupported (no source has it), or given (only the question, system prompt or tool arguments have it;
 *   not counted).
 * - score = 0 when anything is contradicted; else supported / (supported + 3 · unsupported hard +
 *   0.5 · unsupported soft), where hard = numbers, dates, times, ids and soft = names and status words;
 *   1 when there is nothing to check. Higher is better; the default set fails below 0.6, and a
 *   contradiction (0) fails under any threshold above 0.
 */
import { createScorer } from '../../core/scorer.js';
import { notScorable } from '../../core/not-scorable.js';
import { classify, claimContext, type Classified, type GivenText } from './classify.js';
import { runSources } from './run-sources.js';
import { groundingSources, stem, type GroundingSources } from './sources.js';
import { NEGATORS } from './vocabulary.js';
import { extractSpecifics, type Specific } from './specifics.js';

export interface ClaimGroundingOptions {
  /** Static documents added to the sources. */
  context?: string[];
}

/** Weight of an unsupported number, date, time or id against one supported specific. */
export const HARD_WEIGHT = 3;
/** Weight of an unsupported name or status word. */
export const SOFT_WEIGHT = 0.5;

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
  unsupported: GroundingItem[];
  given: GroundingItem[];
}

const HARD: ReadonlySet<Specific['kind']> = new Set(['number', 'date', 'time', 'id']);

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
  const { claims, specifics } = extractSpecifics(answer, ref ? { ref } : {});
  const given = new Given(options.givenText ?? '', ref);
  const ctx = claimContext(claims, sources);
  const out: ClaimGroundingResult = { claims, supported: [], contradicted: [], unsupported: [], given: [] };
  for (const s of specifics) {
    const c = classify(s, sources, given, ctx);
    if (c.verdict === 'ignored') continue;
    out[c.verdict].push(item(c, claims));
  }
  for (const b of booleanClaims(claims, sources)) out[b.verdict].push(b.item);
  return out;
}

/**
 * Claims about yes/no slots that are not known statuses: a claim naming every meaningful word of the key
 * (`breakfastIncluded` → "breakfast … included") asserts the slot, negated when its clause has a negator.
 */
function booleanClaims(claims: readonly string[], sources: GroundingSources): { item: GroundingItem; verdict: 'supported' | 'contradicted' }[] {
  const out: { item: GroundingItem; verdict: 'supported' | 'contradicted' }[] = [];
  for (const b of sources.booleans) {
    for (const claim of claims) {
      for (const clause of claim.split(/[;:]|,\s+(?:but|and)\b/u)) {
        const words = clause.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean);
        const stems = new Set(words.map((w) => stem(w.replace(/'s$/, ''))));
        if (!b.stems.every((s) => stems.has(s))) continue;
        const negated = words.some((w) => NEGATORS.has(w)) || /\bn't\b|n't\s/.test(clause.toLowerCase());
        const text = clause.trim();
        out.push({
          item: { kind: 'status', text, reading: `${negated ? 'not ' : ''}${b.slot.path}`, claim, sources: [{ source: b.slot.source, path: b.slot.path, value: b.slot.shown }] },
          verdict: negated === !b.value ? 'supported' : 'contradicted',
        });
      }
    }
  }
  return out;
}

/** The score of a result (see the module comment). */
export function claimGroundingScore(r: ClaimGroundingResult): number {
  if (r.contradicted.length > 0) return 0;
  const hard = r.unsupported.filter((i) => HARD.has(i.kind)).length;
  const soft = r.unsupported.length - hard;
  const supported = r.supported.length;
  const total = supported + HARD_WEIGHT * hard + SOFT_WEIGHT * soft;
  return total === 0 ? 1 : supported / total;
}

function describe(i: GroundingItem): string {
  const read = i.reading !== i.text.toLowerCase() && i.kind !== 'entity' ? ` (${i.reading})` : '';
  if (i.sources.length === 0) return `"${i.text}"${read}`;
  return `"${i.text}"${read} vs ${i.sources.map((s) => `${s.source}${s.path ? ` ${s.path}` : ''}: ${s.value}`).join(', ')}`;
}

/** The explanation: what was contradicted (with the tool value beside it) and what was unsupported. */
export function claimGroundingReason(r: ClaimGroundingResult, score: number): string {
  const n = r.supported.length + r.contradicted.length + r.unsupported.length;
  // Two decimals in the text (the record's score keeps full precision).
  const shown = Math.round(score * 100) / 100;
  if (n === 0) return `The score is ${shown} because the answer states no specifics (numbers, dates, ids, names, statuses) to check.`;
  const parts: string[] = [];
  if (r.contradicted.length > 0) parts.push(`contradicted by the tool results: ${r.contradicted.map(describe).join('; ')}`);
  if (r.unsupported.length > 0) parts.push(`not in any tool result or document: ${r.unsupported.map(describe).join('; ')}`);
  const head = `The score is ${shown} because ${r.supported.length} of ${n} specifics are supported`;
  return parts.length === 0 ? `${head}.` : `${head}; ${parts.join('; ')}.`;
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
      if (s.tools.length === 0 && s.documents.length === 0) return notScorable('no-grounding-source');
      return checkClaims(s.answer, s.tools, s.documents, { givenText: s.givenText, ...(s.day ? { day: s.day } : {}) });
    })
    .generateScore(({ results }) => claimGroundingScore(results.preprocessStepResult))
    .generateReason(({ results, score }) => claimGroundingReason(results.preprocessStepResult, score));
}
