/** The scenarios in run order, by the name `--only` selects. */
import type { Scenario } from './context.js';
import { ingestScenario } from './ingest.js';

export const scenarios: ReadonlyArray<readonly [string, Scenario]> = [
  ['ingest', async (ctx) => [...(ctx.quick ? [] : await ingestScenario(ctx, 'small')), ...(await ingestScenario(ctx, 'llm'))]],
];
