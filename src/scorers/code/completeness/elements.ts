/**
 * The `compromise` parse behind completeness: the elements of one text. Pure, and the only part of the
 * scorer that costs anything (a few ms per text), so it also runs in worker threads (`element-pool.ts`).
 *
 * Same elements as the reference's parse (nouns, `verbs().toInfinitive()`, topics, terms of one document),
 * derived with less work: `toInfinitive` re-tags the whole sentence after converting each verb, so that the
 * next verb of that sentence is parsed on fresh tags. The re-tag after the LAST verb of a sentence only
 * refreshes tags that the later views could read; it is skipped here (about a third of the parse's time on
 * agent-sized texts). test/scorers/completeness-identity.test.ts checks, with the reference-style parse as
 * the oracle, that the element lists stay identical (order included) over a corpus of real English.
 */
import type { Nlp } from './nlp.js';
import { compromise } from './nlp.js';

/** NFD, combining marks (U+0300–U+036F) removed, lowercase. */
export function stripMarks(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function cleanPhrase(phrase: string): string[] {
  return stripMarks(phrase)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

/** The sentence re-tag `toInfinitive` runs after each verb (compromise 14's `conjugate/toInfinitive.js`). */
const RETAG = 'freeze,lexicon,preTagger,postTagger,unfreeze,chunks';

type Compute = (this: unknown, input: unknown) => unknown;

/** While set, `toInfinitive`'s re-tags are counted, and the one after the last verb of a sentence skipped. */
interface RetagPlan {
  /** Sentence index of each verb of the view, in the order `toInfinitive` converts them. */
  sentences: number[];
  /** Re-tags seen so far. */
  seen: number;
}

let plan: RetagPlan | undefined;
let hooked: boolean | undefined;
let skipped = 0;

/** Sentence re-tags skipped so far in this thread (the fast path at work; tests, diagnostics). */
export function skippedRetags(): number {
  return skipped;
}

/**
 * Wraps the views' `compute` once: outside a `toInfinitiveSkippingLast` call it is the original method.
 * False when compromise's shape is not the one expected (then every parse takes the reference path).
 */
function hook(nlp: Nlp): boolean {
  if (hooked !== undefined) return hooked;
  let proto: object | null = Object.getPrototypeOf(nlp('x')) as object | null;
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'compute')) proto = Object.getPrototypeOf(proto) as object | null;
  const target = proto as { compute?: Compute } | null;
  const original = target?.compute;
  if (!target || typeof original !== 'function') return (hooked = false);
  target.compute = function (this: unknown, input: unknown): unknown {
    const p = plan;
    if (p && Array.isArray(input) && input.join(',') === RETAG) {
      const i = p.seen++;
      // Another verb of this sentence follows: it must be parsed on fresh tags.
      if (p.sentences[i + 1] !== p.sentences[i]) {
        skipped++;
        return this;
      }
    }
    return original.call(this, input);
  };
  return (hooked = true);
}

type Doc = ReturnType<Nlp>;

/** Elements from the four views, cleaned into words and de-duplicated in order. */
function collect(nouns: string[], verbs: string[], doc: Doc): string[] {
  const topics = doc.topics().out('array') as string[];
  const terms = doc.terms().out('array') as string[];
  const seen = new Set<string>();
  for (const phrase of [...nouns, ...verbs, ...topics, ...terms]) for (const w of cleanPhrase(phrase)) seen.add(w);
  return [...seen];
}

/** The reference's derivation, step for step (the oracle of the identity test, and the fallback). */
export function parseElementsReference(text: string): string[] {
  const doc = compromise()(text);
  const nouns = doc.nouns().out('array') as string[];
  const verbs = doc.verbs().toInfinitive().out('array') as string[];
  return collect(nouns, verbs, doc);
}

/**
 * Elements of a text in the reference's order: nouns, verbs (infinitive; this mutates the document, so
 * topics and terms see infinitives), topics, terms; each cleaned into words and de-duplicated.
 */
export function parseElements(text: string): string[] {
  const nlp = compromise();
  if (!hook(nlp)) return parseElementsReference(text);
  const doc = nlp(text);
  const nouns = doc.nouns().out('array') as string[];
  const view = doc.verbs();
  const pointer = (view as unknown as { pointer?: Array<[number, ...number[]]> | null }).pointer;
  if (!pointer) return parseElementsReference(text);
  const current: RetagPlan = { sentences: pointer.map((p) => p[0]), seen: 0 };
  let verbs: string[];
  plan = current;
  try {
    verbs = view.toInfinitive().out('array') as string[];
  } finally {
    plan = undefined;
  }
  // One re-tag per verb is what the skipping assumes; anything else takes the reference path afresh.
  if (current.seen !== current.sentences.length) return parseElementsReference(text);
  return collect(nouns, verbs, doc);
}
