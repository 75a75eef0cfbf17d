/** Quick checks (docs/scorers.md): small 0/1 code scorers. */
export { includes, excludes, equals, matches, similarity } from './text-checks.js';
export { calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors } from './tool-checks.js';
