/**
 * Independent expected values for the code scorers, computed straight from the reference's libraries and the
 * docs/scorers.md (not through tracejudge's scorer code), for one user question and one answer.
 */
import keywordExtractorModule from 'keyword-extractor';
import Sentiment from 'sentiment';
import stringSimilarity from 'string-similarity';

const keywordExtractor = keywordExtractorModule as unknown as { extract(text: string, options: Record<string, unknown>): string[] };

/** §5.1 with the default options (ignoreCase, ignoreWhitespace). */
export function contentSimilarity(input: string, output: string): number {
  const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();
  return stringSimilarity.compareTwoStrings(norm(input), norm(output));
}

/** §5.3: share of the input's keywords found among the output's. */
export function keywordCoverage(input: string, output: string): number {
  const opts = { language: 'english', remove_digits: true, return_changed_case: true, remove_duplicates: true };
  const ref = new Set(keywordExtractor.extract(input, opts));
  const res = new Set(keywordExtractor.extract(output, opts));
  if (ref.size === 0) return 1;
  return [...ref].filter((k) => res.has(k)).length / ref.size;
}

/** §5.5 with `referenceTone`: max(0, 1 − |comparative(output) − comparative(reference)|). */
export function toneAgainst(output: string, reference: string): number {
  const s = new Sentiment();
  return Math.max(0, 1 - Math.abs(s.analyze(output).comparative - s.analyze(reference).comparative));
}

/** §5.2: 2·LCS(a, b) / (|a| + |b|) over UTF-16 code units; 1 when equal, 0 when either is empty. */
export function lcsRatio(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      row[j] = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, row[j - 1] ?? 0);
    }
    prev = row;
  }
  return (2 * (prev[b.length] ?? 0)) / (a.length + b.length);
}
