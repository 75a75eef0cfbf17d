/**
 * The `compromise` parse behind completeness: the elements of one text. Pure, and the only part of the
 * scorer that costs anything (a few ms per text), so it also runs in worker threads (`element-pool.ts`).
 * The derivation is the reference's, step for step, on one document per text (the reference parses each
 * text once per run too). `toInfinitive` re-tags the whole sentence after each verb (about half the cost);
 * the re-tags cannot be skipped: skipping the one after a sentence's last verb changes the topics of some
 * texts (1 in ~15,000 English texts), skipping all of them changes 8 in ~3,400. What makes the workers
 * faster is `speedups.ts`, on their own compromise instance.
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

type Doc = ReturnType<Nlp>;

/** Elements from the four views, cleaned into words and de-duplicated in order. */
function collect(nouns: string[], verbs: string[], doc: Doc): string[] {
  const topics = doc.topics().out('array') as string[];
  const terms = doc.terms().out('array') as string[];
  const seen = new Set<string>();
  for (const phrase of [...nouns, ...verbs, ...topics, ...terms]) for (const w of cleanPhrase(phrase)) seen.add(w);
  return [...seen];
}

/**
 * A parser of elements on `nlp`: the reference's order, nouns, verbs (infinitive; this mutates the
 * document, so topics and terms see infinitives), topics, terms; each cleaned into words and de-duplicated.
 * The workers make one on their own compromise instance, with `speedups.ts`.
 */
export function elementParser(nlp: Nlp): (text: string) => string[] {
  return (text) => {
    const doc = nlp(text);
    const nouns = doc.nouns().out('array') as string[];
    const verbs = doc.verbs().toInfinitive().out('array') as string[];
    return collect(nouns, verbs, doc);
  };
}

/** Elements of a text (see `elementParser`), parsed by compromise as it ships. */
export function parseElements(text: string): string[] {
  return elementParser(compromise())(text);
}
