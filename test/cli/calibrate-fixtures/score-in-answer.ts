/** A custom scorer for the calibrate test: the score is the number the answer states (`score 0.3`). */
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { outputTextOf } from '../../../src/scorers/llm/shared.js';

export default createScorer({ id: 'score-in-answer', description: 'the number in the answer' }).generateScore(({ run }) => Number(/score (\d+(?:\.\d+)?)/.exec(outputTextOf(run))?.[1] ?? 'NaN'));
