/**
 * Runs that were found but carry no content: no input text, or no output text. Scorers skip them
 * (`no-input`, `no-output`: an empty run is never a pass), and `extract --explain` names the likely cause,
 * which depends on where the run's convention puts message content (../shared/reference/trace-conventions.md).
 */
import type { AgentRun, Convention } from '../model/agent-run.js';
import { messageInvocations, messageText } from '../model/messages.js';
import type { Framework } from './frameworks.js';

/** True when the run's output has text (tool calls alone are not an answer). */
export function hasOutputText(run: AgentRun): boolean {
  return run.output.some((m) => messageText(m).trim() !== '');
}

/** True when the run's input has text: the user turn, or remembered turns when the convention records them. */
export function hasInputText(run: AgentRun): boolean {
  const { inputMessages, rememberedMessages } = run.input;
  return inputMessages.some((m) => messageText(m).trim() !== '') || rememberedMessages.some((m) => messageText(m).trim() !== '');
}

/** Hand-off tools: OpenAI Agents SDK (`handoff to <agent>` spans, `transfer_to_<agent>` calls). */
const HANDOFF = /^(?:handoff to |transfer_to_)/;

/** True when the run ended by handing off to another agent. */
function handedOff(run: AgentRun): boolean {
  const last = run.output[run.output.length - 1];
  return last !== undefined && messageInvocations(last).some((i) => HANDOFF.test(i.toolName));
}

/** Where each convention keeps content, and the app setting that usually leaves it out. */
const LIKELY_CAUSE: Record<Convention, string> = {
  genai:
    'the OTel GenAI conventions carry content in log records (gen_ai.*.message events, gen_ai.client.inference.operation.details) ' +
    'or in gen_ai.input.messages / gen_ai.output.messages when the app captures content: send the app\'s logs too (OTLP /v1/logs, ' +
    'or give the logs file beside the traces) and turn content capture on in the app (e.g. OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)',
  aisdk: 'the AI SDK records ai.prompt / ai.response.text only with experimental_telemetry recordInputs / recordOutputs on (the default)',
  openinference: 'OpenInference leaves out input.value / output.value when OPENINFERENCE_HIDE_INPUTS / OPENINFERENCE_HIDE_OUTPUTS (or the *_MESSAGES / *_TEXT variants) are set in the app',
  openllmetry: 'OpenLLMetry records prompts and completions only with TRACELOOP_TRACE_CONTENT=true (the default)',
  mastra: 'Mastra records agent input and output on its agent spans unless the app hides them in its observability settings',
  mapping: 'the configured extract.mappings attributes for input and output were not on the span',
};

/**
 * How to get content into runs of `convention`: where the convention keeps message content and the app
 * setting that usually leaves it out (the likely cause `extract --explain` gives for an empty run).
 */
export function contentCaptureHint(convention: Convention): string {
  return LIKELY_CAUSE[convention];
}

/**
 * A warning for a found-but-empty run, or `undefined` when the run has input and output text. `framework`
 * (from the trace's explanation) names the framework's own content setting instead of the convention's.
 */
export function emptyRunWarning(run: AgentRun, logRecords: number, framework?: Framework): string | undefined {
  const missing = [hasInputText(run) ? undefined : 'input', hasOutputText(run) ? undefined : 'output'].filter((m) => m !== undefined);
  if (missing.length === 0) return undefined;
  // An agent that handed the conversation off has no answer of its own: nothing is missing.
  if (missing.length === 1 && missing[0] === 'output' && handedOff(run)) return undefined;
  const tools = run.toolResults.length > 0 ? ` (it made ${run.toolResults.length} tool call(s))` : '';
  // A recognised framework's hint says where its content goes (Pydantic AI: span attributes, not log records).
  const logs = run.convention === 'genai' && logRecords === 0 && framework === undefined ? '; no log records arrived for this trace' : '';
  return `run \`${run.agentName}\` (${run.convention}) has no ${missing.join(' and no ')} text${tools}, so every answer scorer skips it (no-${missing[0] ?? 'output'}); likely cause: ${framework !== undefined ? `${framework.name}: ${framework.contentHint}` : LIKELY_CAUSE[run.convention]}${logs}`;
}
