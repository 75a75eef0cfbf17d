/** The stub OpenAI-compatible judge: server, scripted replies and routing helpers. */
export { startStubJudge, type StubJudge, type StubJudgeOptions, type StubMessage, type StubRequest, type StubResponse, type StubScript } from './server.js';
export { reply, type StreamFault, type StubReply, type StubUsage } from './replies.js';
export { byMarker } from './route.js';
