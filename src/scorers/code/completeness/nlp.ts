/**
 * `compromise`, loaded on first use. It is the heaviest module tracejudge has (~30 MiB of lexicon and
 * models once loaded), and only completeness and grounding need it: a service without those scorers never
 * loads it. It is loaded with `require` (its CommonJS build, the same version and rules as the ES module)
 * so that the scorers' parses stay synchronous. Node's module cache holds it after the first call; nothing
 * here keeps state of its own.
 */
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

export type Nlp = typeof nlpType;

const require = createRequire(import.meta.url);

/** The `compromise` entry point (`nlp(text)`), loaded on the first call. */
export function compromise(): Nlp {
  return require('compromise') as Nlp;
}
