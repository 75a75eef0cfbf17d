// Calls @mastra/evals' exported run helpers on each { input, output } of the input list, and returns what each
// helper returned, per run, under the helper's name.
import {
  extractAgentResponseMessages,
  extractInputMessages,
  extractToolCalls,
  extractToolResults,
  getAssistantMessageFromRunOutput,
  getConversationHistoryFromRunInput,
  getSystemMessagesFromRunInput,
  getTextContentFromMastraDBMessage,
  getUserMessageFromRunInput,
  isScorerRunInputForAgent,
  isScorerRunOutputForAgent,
} from '@mastra/evals/scorers/utils';
import { readInput, writeOutput } from './io.mjs';

const runs = await readInput();
writeOutput(
  runs.map(({ input, output }) => ({
    isScorerRunInputForAgent: isScorerRunInputForAgent(input),
    isScorerRunOutputForAgent: isScorerRunOutputForAgent(output),
    extractToolResults: extractToolResults(output),
    extractToolCalls: extractToolCalls(output),
    getAssistantMessageFromRunOutput: getAssistantMessageFromRunOutput(output),
    getUserMessageFromRunInput: getUserMessageFromRunInput(input),
    getSystemMessagesFromRunInput: getSystemMessagesFromRunInput(input),
    getTextContentFromMastraDBMessage: output.map((m) => getTextContentFromMastraDBMessage(m)),
    extractInputMessages: extractInputMessages(input),
    extractAgentResponseMessages: extractAgentResponseMessages(output),
    getConversationHistoryFromRunInput: getConversationHistoryFromRunInput(input),
  })),
);
