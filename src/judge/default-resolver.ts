/**
 * The judge resolver of library code run outside a service: `createHallucinationScorer({ model:
 * 'openai/gpt-4o-mini' }).run(…)` with no setup call. A service never uses it: it passes its own resolver,
 * made from its settings, to every run.
 */
import { componentSettings } from '../component.js';
import { JudgeResolver } from './resolver.js';
import { markJudgeFetch } from './self-mark.js';

/**
 * A judge resolver made from `process.env` (or `env`), for a scorer that runs outside a service. Each scorer
 * makes its own on its first judge step and keeps it, so its clients, retries and concurrency limit live as long
 * as the scorer; a scorer made after the environment changed sees the new values. Judge requests carry the
 * self-exclusion marks, as the service's do.
 *
 * @example
 * ```ts
 * const port = createDefaultJudgeResolver().resolve('openai/gpt-4o-mini');
 * ```
 */
export function createDefaultJudgeResolver(env: NodeJS.ProcessEnv = process.env): JudgeResolver {
  return new JudgeResolver({ env, settings: componentSettings(), fetch: markJudgeFetch() });
}
