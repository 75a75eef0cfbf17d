/**
 * `compromise`, loaded on first use. It is the heaviest module tracejudge has (~30 MiB of lexicon and
 * models once loaded), and only completeness and grounding need it: a service without those scorers never
 * loads it. It is loaded with `require` (its CommonJS build, the same version and rules as the ES module)
 * so that the scorers' parses stay synchronous.
 */
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

export type Nlp = typeof nlpType;

let loaded: Nlp | undefined;

/** The `compromise` entry point (`nlp(text)`), loaded on the first call. */
export function compromise(): Nlp {
  loaded ??= createRequire(import.meta.url)('compromise') as Nlp;
  return loaded;
}
