/** Prompts of the goal scorer (docs/scorers.md), in our own words. */
import { fence } from '../fence.js';

export const GOAL_INSTRUCTIONS =
  'You decide whether an agent has reached the goal it was given. Answer "done" when the latest assistant ' +
  'message achieves the goal, "waiting" when the agent is rightly waiting for the user (for example it asked ' +
  'a needed question), and "continue" when more work is needed. Give a one-sentence reason.';

export function goalPrompt(goal: string, latestUser: string | undefined, stepsSinceUser: number, latestAssistant: string): string {
  const parts = [`Goal: ${fence('GOAL', goal)}`];
  if (latestUser !== undefined) {
    parts.push(`Latest user message: ${fence('USER MESSAGE', latestUser)}`);
    parts.push(`Assistant steps since that message: ${stepsSinceUser}`);
  }
  parts.push(`Latest assistant message: ${fence('ASSISTANT MESSAGE', latestAssistant)}`);
  parts.push('Decide: done, continue or waiting.');
  return parts.join('\n\n');
}
