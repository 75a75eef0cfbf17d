/** The scenarios in run order, by the name `--only` selects. */
import type { Scenario } from './context.js';
import { ingestScenario } from './ingest.js';
import { footprintScenario } from './footprint.js';
import { judgeEconomicsScenario } from './judge-economics.js';
import { kafkaScenario } from './kafka.js';
import { memoryScenario } from './memory.js';
import { isolated } from './isolated.js';
import { scorersScenario } from './scorers.js';
import { verdictsScenario } from './verdicts.js';

export const scenarios: ReadonlyArray<readonly [string, Scenario]> = [
  ['ingest', async (ctx) => [...(ctx.quick ? [] : await ingestScenario(ctx, 'small')), ...(await ingestScenario(ctx, 'llm'))]],
  ['memory', memoryScenario],
  ['footprint', footprintScenario],
  ['scorers', scorersScenario],
  ['verdicts', verdictsScenario],
  ['pipeline', isolated(new URL('./pipeline.ts', import.meta.url), 'pipelineScenario')],
  ['judge-economics', judgeEconomicsScenario],
  ['kafka', kafkaScenario],
];
