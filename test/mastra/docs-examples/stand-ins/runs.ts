/**
 * Values the docs' examples use without defining them (an agent's output messages, a workflow's result, a
 * trajectory, a document and its summary). Each is small and its content is stated here, so the results the
 * examples compute from it are known in advance (see docs-examples.test.ts).
 */
import { createTestMessage } from '../../../../src/index.js';
import type { Trajectory } from '../../../../src/index.js';

/** An assistant message that called `search` then `summarize` (Mastra's format-2 message). */
export const agentOutputMessages = [
  createTestMessage({
    content: 'It is sunny and warm.',
    role: 'assistant',
    id: 'msg-1',
    toolInvocations: [
      { toolCallId: 'call-1', toolName: 'search', args: { q: 'weather' }, result: ['Sunny, 72°F'], state: 'result' },
      { toolCallId: 'call-2', toolName: 'summarize', args: { text: 'Sunny, 72°F' }, result: 'Sunny and warm.', state: 'result' },
    ],
  }),
];

/** A workflow result: `validate` then `process`, both successful. */
export const workflowResult = {
  status: 'success',
  result: { ok: true },
  steps: {
    validate: { status: 'success', payload: { query: 'x' }, output: { valid: true }, startedAt: 1000, endedAt: 1010 },
    process: { status: 'success', payload: { valid: true }, output: { ok: true }, startedAt: 1010, endedAt: 1030 },
  },
  stepExecutionPath: ['validate', 'process'],
};

/** `search` then `summarize`: matches the expectation of the compareTrajectories example exactly. */
export const actualTrajectory: Trajectory = {
  steps: [
    { stepType: 'tool_call', name: 'search', toolArgs: { q: 'weather' }, toolResult: ['Sunny'], success: true },
    { stepType: 'tool_call', name: 'summarize', toolArgs: { text: 'Sunny' }, toolResult: 'Sunny.', success: true },
  ],
};

/**
 * Three steps, 300 tokens in all and 1.2 s: within the budgets of the efficiency example, no blacklisted tool,
 * no repeated call, no failure.
 */
export const trajectory: Trajectory = {
  steps: [
    { stepType: 'model_generation', name: 'plan', promptTokens: 100, completionTokens: 50, durationMs: 400 },
    { stepType: 'tool_call', name: 'search', toolArgs: { q: 'weather' }, toolResult: ['Sunny'], success: true, durationMs: 300 },
    { stepType: 'model_generation', name: 'answer', promptTokens: 100, completionTokens: 50, durationMs: 500 },
  ],
  totalDurationMs: 1200,
};

export const sourceDocument =
  'The James Webb Space Telescope launched on December 25, 2021. It orbits the Sun near the second Lagrange point. Its primary mirror is 6.5 metres across and made of 18 gold-coated beryllium segments.';
export const summary = 'The James Webb Space Telescope launched in December 2021 and has a 6.5 metre mirror.';
