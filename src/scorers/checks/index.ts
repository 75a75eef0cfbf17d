/** Quick checks (SCORERS §7): small 0/1 code scorers. */
export { includes, excludes, equals, matches, similarity } from './text-checks.js';
export { calledTool, didNotCall, toolOrder, maxToolCalls, usedNoTools, noToolErrors } from './tool-checks.js';
