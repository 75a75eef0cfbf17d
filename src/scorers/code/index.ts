/** The code scorers (docs/scorers.md) and the grounding scorer, one folder each. */
export { createContentSimilarityScorer, type ContentSimilarityOptions } from './content-similarity/index.js';
export { createTextualDifferenceScorer, lcsLength, lcsRatio } from './textual-difference/index.js';
export { createKeywordCoverageScorer, extractKeywords } from './keyword-coverage/index.js';
export { createCompletenessScorer } from './completeness/index.js';
export { createToneScorer, type ToneScorerOptions } from './tone/index.js';
export { createToolCallAccuracyScorerCode, type ToolCallAccuracyCodeOptions } from './tool-call-accuracy/index.js';
export { createTrajectoryAccuracyScorerCode, type TrajectoryAccuracyCodeOptions } from './trajectory-accuracy/index.js';
export { createTrajectoryScorerCode, type TrajectoryScorerCodeOptions, type TrajectoryWeights } from './trajectory/index.js';
export { createGroundingScorer, type GroundingOptions } from './grounding/index.js';
