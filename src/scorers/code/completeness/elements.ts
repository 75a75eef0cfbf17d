/**
 * The `compromise` parse behind completeness: the elements of one text. Pure, and the only part of the
 * scorer that costs anything (a few ms per text), so it also runs in worker threads (`element-pool.ts`).
 * The derivation is the reference's, step for step: `toInfinitive` re-tags the whole sentence after each
 * verb (most of the cost). Skipping the re-tag after a sentence's last verb gives identical elements and is
 * ~1.3× faster, but compromise offers no hook for it: it needs a patch of compromise's shared prototype,
 * which every user of compromise in the process would see, so it is not done.

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
 * Elements of a text in the reference's order: nouns, verbs (infinitive; this mutates the document, so
 * topics and terms see infinitives), topics, terms; each cleaned into words and de-duplicated.
 */
export function parseElements(text: string): string[] {
  const doc = compromise()(text);
  const nouns = doc.nouns().out('array') as string[];
  const verbs = doc.verbs().toInfinitive().out('array') as string[];
  return collect(nouns, verbs, doc);
}
