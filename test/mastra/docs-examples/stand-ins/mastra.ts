/**
 * A stand-in for the docs' `mastra` instance (`import { mastra } from './mastra'`): `getAgent(name)`,
 * `getWorkflow(name)` and `getScorer(name)` return the stand-ins registered here, and throw naming the key for
 * anything else, as Mastra does.
 */
import { chatAgent, myAgent, summarizerAgent, weatherAgent } from './agent.js';
import * as scorers from './scorers.js';
import { myWorkflow } from './workflow.js';

const agents: Record<string, unknown> = { myAgent, chatAgent, weatherAgent, summarizerAgent };
const workflows: Record<string, unknown> = { myWorkflow };
const scorerMap: Record<string, unknown> = { ...scorers };

function lookup(kind: string, map: Record<string, unknown>, name: string): unknown {
  const v = map[name];
  if (v === undefined) throw new Error(`${kind} with name ${name} not found (stand-in mastra has: ${Object.keys(map).join(', ')})`);
  return v;
}

export const mastra = {
  getAgent: (name: string): unknown => lookup('Agent', agents, name),
  getWorkflow: (name: string): unknown => lookup('Workflow', workflows, name),
  getScorer: (name: string): unknown => lookup('Scorer', scorerMap, name),
};
