/**
 * Stand-ins for the scorers the docs import from their own project (`./scorers`) or get from
 * `mastra.getScorer(...)`. Each is made with tracejudge's own `createScorer` or a prebuilt factory; the code ones
 * score by a rule stated here, the judge ones reach the scripted judge through a model string.
 */
import { createAnswerRelevancyScorer, createScorer, createTrajectoryAccuracyScorerCode } from '../../../../src/index.js';

const textOf = (output: unknown): string => {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(textOf).join(' ');
  if (output !== null && typeof output === 'object') {
    const o = output as { content?: unknown; text?: unknown };
    if (typeof o.content === 'string') return o.content;
    if (o.content !== null && typeof o.content === 'object' && typeof (o.content as { content?: unknown }).content === 'string') return (o.content as { content: string }).content;
    if (typeof o.text === 'string') return o.text;
    return JSON.stringify(output);
  }
  return output === undefined || output === null ? '' : typeof output === 'string' || typeof output === 'number' || typeof output === 'boolean' ? String(output) : '';
};

/** 1 when the output has text, else 0. */
export const myScorer1 = createScorer({ id: 'my-scorer-1', description: 'Output is not empty' }).generateScore(({ run }) => (textOf(run.output).trim().length > 0 ? 1 : 0));
/** min(1, words / 10) of the output. */
export const myScorer2 = createScorer({ id: 'my-scorer-2', description: 'Output length' }).generateScore(({ run }) => Math.min(1, textOf(run.output).split(/\s+/).filter(Boolean).length / 10));
export const myScorer = myScorer1;
/** Answer relevancy through the scripted judge. */
export const relevancyScorer = createAnswerRelevancyScorer({ model: 'openai/gpt-4o-mini' });
/** 1 when the workflow (or agent) produced an output, else 0. */
export const outputQualityScorer = createScorer({ id: 'output-quality', description: 'An output was produced' }).generateScore(({ run }) => (run.output === undefined || run.output === null ? 0 : 1));
export const outputScorer = outputQualityScorer;
/** 1 when the step's output is an object. */
export const validationScorer = createScorer({ id: 'validation', description: 'The step produced an object' }).generateScore(({ run }) => (run.output !== null && typeof run.output === 'object' ? 1 : 0));
export const processingScorer = createScorer({ id: 'processing', description: 'The step produced an object' }).generateScore(({ run }) => (run.output !== null && typeof run.output === 'object' ? 1 : 0));
/** 1 when the agent answered with more than five words. */
export const qualityScorer = createScorer({ id: 'quality', description: 'The answer has substance' }).generateScore(({ run }) => (textOf(run.output).split(/\s+/).length > 5 ? 1 : 0));
/** Trajectory accuracy against `search` then `summarize`. */
export const trajectoryScorer = createTrajectoryAccuracyScorerCode({ expectedTrajectory: { steps: [{ stepType: 'tool_call', name: 'search' }, { stepType: 'tool_call', name: 'summarize' }] } });

/** The scorer, input and output of the MastraScorer error-handling example: a judge scorer and a run it can score. */
export const scorer = relevancyScorer;
export const input = { inputMessages: [{ id: 'u1', role: 'user', content: 'What is the capital of France?' }], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} };
export const output = [{ id: 'a1', role: 'assistant', content: 'The capital of France is Paris.' }];
