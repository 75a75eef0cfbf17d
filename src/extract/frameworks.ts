/**
 * The agent framework behind a trace, recognised from its instrumentation scope (and a marker attribute where
 * one instrumentation serves several frameworks), so `extract --explain` can name it and say how that
 * framework turns content capture on. Only frameworks whose traces the repository has real fixtures of are
 * named (test/fixtures/python/); other traces are explained by convention alone.
 */
import type { Span } from '../model/span.js';
import { asString, attr, isRecord, parseJsonish } from './values.js';

/** A recognised framework and instrumentation. */
export interface Framework {
  /** e.g. `LangGraph (OpenInference LangChain instrumentation)`. */
  name: string;
  /** Where this framework's content goes and the setting that leaves it out. */
  contentHint: string;
}

interface Rule {
  scope: string;
  framework: (spans: readonly Span[]) => Framework;
}

/** True when a span of the OpenInference LangChain instrumentation ran inside LangGraph (`metadata.ls_integration`). */
function openInferenceLangGraph(spans: readonly Span[]): boolean {
  for (const s of spans) {
    const m = attr(s.attributes, 'metadata');
    if (m === undefined) continue;
    const meta = parseJsonish(m);
    if (isRecord(meta) && meta.ls_integration === 'langgraph') return true;
  }
  return false;
}

/** True when a span of the OpenLLMetry LangChain instrumentation ran inside LangGraph. */
function openLlmetryLangGraph(spans: readonly Span[]): boolean {
  return spans.some((s) => asString(attr(s.attributes, 'gen_ai.provider.name')) === 'langgraph' || asString(attr(s.attributes, 'traceloop.association.properties.ls_integration')) === 'langgraph');
}

const OI_HIDE = 'OPENINFERENCE_HIDE_INPUTS / OPENINFERENCE_HIDE_OUTPUTS (or the *_MESSAGES / *_TEXT variants, or a TraceConfig passed to the instrumentor)';

const RULES: readonly Rule[] = [
  {
    scope: 'openinference.instrumentation.langchain',
    framework: (spans) => {
      const graph = openInferenceLangGraph(spans);
      return {
        name: `${graph ? 'LangGraph' : 'LangChain'} (OpenInference LangChain instrumentation)`,
        contentHint: `the LangChain instrumentation records each ${graph ? 'graph state' : 'chain input and output'} in input.value / output.value (the user turn is in the agent span's input.value) unless ${OI_HIDE} are set in the app`,
      };
    },
  },
  {
    scope: 'opentelemetry.instrumentation.langchain',
    framework: (spans) => ({
      name: `${openLlmetryLangGraph(spans) ? 'LangGraph' : 'LangChain'} (OpenLLMetry LangChain instrumentation)`,
      contentHint: 'OpenLLMetry records messages (gen_ai.input.messages / gen_ai.output.messages) and tool arguments and results only with TRACELOOP_TRACE_CONTENT=true (the default)',
    }),
  },
  {
    scope: 'openinference.instrumentation.openai_agents',
    framework: () => ({
      name: 'OpenAI Agents SDK (OpenInference instrumentation)',
      contentHint: `the Agents SDK leaves model and tool content out of its spans with RunConfig(trace_include_sensitive_data=False) or OPENAI_AGENTS_TRACE_INCLUDE_SENSITIVE_DATA=false; OpenInference leaves it out with ${OI_HIDE}`,
    }),
  },
  {
    scope: 'openinference.instrumentation.smolagents',
    framework: () => ({
      name: 'smolagents (OpenInference instrumentation)',
      contentHint: `the smolagents instrumentation records the task in the agent span's input.value and the answer in its output.value unless ${OI_HIDE} are set in the app`,
    }),
  },
  {
    scope: 'openinference.instrumentation.llama_index',
    framework: () => ({
      name: 'LlamaIndex (OpenInference instrumentation)',
      contentHint: `the LlamaIndex instrumentation records the messages on its LLM spans (llm.input_messages / llm.output_messages) and tool input and output unless ${OI_HIDE} are set in the app`,
    }),
  },
  {
    scope: 'openinference.instrumentation.crewai',
    framework: () => ({
      name: 'CrewAI (OpenInference instrumentation)',
      contentHint: `the CrewAI instrumentation records each task and its output (TaskOutput) on the agent span's output.value unless ${OI_HIDE} are set in the app`,
    }),
  },
  {
    scope: 'pydantic-ai',
    framework: () => ({
      name: 'Pydantic AI (built-in instrumentation)',
      contentHint: 'Pydantic AI records messages and tool arguments and results unless InstrumentationSettings(include_content=False) (or logfire.instrument_pydantic_ai(include_content=False)) is set',
    }),
  },
  {
    scope: 'gcp.vertex.agent',
    framework: () => ({
      name: 'Google ADK (built-in instrumentation)',
      contentHint:
        "ADK puts messages and tool arguments and results on its spans only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only (or span_and_event); 'true' means event_only (gen_ai.* log records, which need a logs pipeline to /v1/logs), unset means none",
    }),
  },
  {
    scope: 'opentelemetry.util.genai.handler',
    framework: () => ({
      name: 'OpenTelemetry GenAI utils (opentelemetry-util-genai: opentelemetry-instrumentation-openai-v2 and application agent spans)',
      contentHint:
        "opentelemetry-util-genai 1.x puts messages and tool arguments and results on spans only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only (or span_and_event); 'true' is no mode of it (it warns and captures nothing), event_only sends log records",
    }),
  },
];

/** The framework behind `spans`, or `undefined` when no span's scope is a known framework instrumentation. */
export function recognizeFramework(spans: readonly Span[]): Framework | undefined {
  for (const rule of RULES) {
    if (spans.some((s) => s.scope.name === rule.scope)) return rule.framework(spans);
  }
  return undefined;
}
