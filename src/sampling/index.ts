/** The sampling stage: public surface for the pipeline, the CLI and `src/index.ts`. */
export { hashToUnitInterval, sampledAtRate } from './hash.js';
export { createSamplingPolicy, type SamplingPolicy } from './policy.js';
export { PolicyHolder } from './holder.js';
export { explainSampling } from './explain.js';
export { effectiveRates, type ScorerRate } from './rates.js';
export { detectedKind, withEffectiveKind } from './kind.js';
export { watchConfig, logConfigError, type ConfigWatcher, type WatchConfigOptions } from './reload.js';
export { upstreamSampled } from './upstream.js';
export { BUILTIN_RATES } from './compile.js';
export type { SamplingInput, SamplingDecision, ScorerKind, Predicate } from './types.js';
