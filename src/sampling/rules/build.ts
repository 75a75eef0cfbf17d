/** Turns a validated condition config into a `Predicate` (the registry of rule types). */
import type { PredicateConfig } from '../../config/sections/sampling.js';
import type { Predicate } from '../types.js';
import { attributePredicate } from './attribute.js';
import { andPredicate, notPredicate, orPredicate } from './composite.js';
import { errorsPredicate } from './errors.js';
import { latencyPredicate } from './latency.js';
import { retrievalPredicate } from './retrieval.js';
import { scoreBelowPredicate } from './score-below.js';
import { tokensPredicate } from './tokens.js';
import { unverifiedPredicate } from './unverified.js';
import { toolCallsPredicate } from './tool-calls.js';

export function buildPredicate(config: PredicateConfig): Predicate {
  switch (config.type) {
    case 'errors':
      return errorsPredicate(config);
    case 'attribute':
      return attributePredicate(config);
    case 'tool-calls':
      return toolCallsPredicate(config);
    case 'retrieval':
      return retrievalPredicate(config);
    case 'latency':
      return latencyPredicate(config);
    case 'tokens':
      return tokensPredicate(config);
    case 'score-below':
      return scoreBelowPredicate(config);
    case 'unverified':
      return unverifiedPredicate(config);
    case 'and':
      return andPredicate(config.rules.map(buildPredicate));
    case 'or':
      return orPredicate(config.rules.map(buildPredicate));
    case 'not':
      return notPredicate(buildPredicate(config.rule));
  }
}
