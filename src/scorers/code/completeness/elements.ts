/**
 * The `compromise` parse behind completeness: the elements of one text. Pure, and the only part of the
 * scorer that costs anything (~2 ms for a 50-character text), so it also runs in worker threads
 * (`element-pool.ts`).
 */
import nlp from 'compromise';

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

/**
 * Elements of a text in the reference's order: nouns, verbs (infinitive; this mutates the document, so
 * topics and terms see infinitives), topics, terms; each cleaned into words and de-duplicated.
 */
export function parseElements(text: string): string[] {
  const doc = nlp(text);
  const nouns = doc.nouns().out('array') as string[];
  const verbs = doc.verbs().toInfinitive().out('array') as string[];
  const topics = doc.topics().out('array') as string[];
  const terms = doc.terms().out('array') as string[];
  const seen = new Set<string>();
  for (const phrase of [...nouns, ...verbs, ...topics, ...terms]) for (const w of cleanPhrase(phrase)) seen.add(w);
  return [...seen];
}
