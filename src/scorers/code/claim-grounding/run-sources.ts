/**
 * What the no-judge checks read from a scorer run: the answer text, the successful tool results, the
 * retrieved documents, what the model was given (question, system prompt, tool arguments) and the run's
 * day. Tool results and documents come from the service's live facts (`requestContext[LIVE_RUN_KEY]`)
 * when present, else from the output's tool invocations; messages are read through the helpers that accept
 * both message shapes.
 */
import type { PreparedRun } from '../../core/types.js';
import { LIVE_RUN_KEY } from '../../llm/shared.js';
import { getAssistantMessageFromRunOutput, getSystemMessagesFromRunInput, getUserMessageFromRunInput } from '../../../extract/helpers.js';
import { extractToolResults, getTextContentFromMastraDBMessage, inputMessagesOf } from '../../utils/run-messages.js';
import { toolFailures } from '../../checks/tool-checks.js';
import { isoDay } from './dates.js';
import type { ToolSource } from './sources.js';

export interface RunSources {
  answer: string;
  tools: ToolSource[];
  documents: string[];
  /** The user turn(s), earlier turns and system prompts, and the tool arguments, joined. */
  givenText: string;
  /** The text of the first user message. */
  question: string;
  /** The run's day, `YYYY-MM-DD`, when known. */
  day?: string;
  /** The error texts of the tool calls that failed (`the service returned 503`): what an honest answer reports. */
  failures: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function facts(run: PreparedRun): Obj | undefined {
  const rc = run.requestContext;
  if (!isObj(rc)) return undefined;
  const get = rc.get;
  const v: unknown = typeof get === 'function' ? (get as (k: string) => unknown).call(rc, LIVE_RUN_KEY) : rc[LIVE_RUN_KEY];
  return isObj(v) ? v : undefined;
}

/** A time as milliseconds, when it is one after the epoch: a valid `Date`, or a string `Date.parse` reads. */
function msOf(v: unknown): number | undefined {
  if (v instanceof Date) return Number.isFinite(v.getTime()) && v.getTime() > 0 ? v.getTime() : undefined;
  if (typeof v === 'string') {
    const ms = Date.parse(v);
    return ms > 0 ? ms : undefined;
  }
  return undefined;
}

/** The run's start: the live facts' `startTime`, else the first output message's `createdAt` (when not the epoch). */
function startOf(run: PreparedRun, f: Obj | undefined): number | undefined {
  const fromFacts = msOf(f?.startTime);
  if (fromFacts !== undefined) return fromFacts;
  if (Array.isArray(run.output)) for (const m of run.output) if (isObj(m)) return msOf(m.createdAt);
  return undefined;
}

function givenOf(input: unknown): string {
  const parts: string[] = [];
  if (typeof input === 'string') parts.push(input);
  for (const m of inputMessagesOf(input) ?? []) parts.push(getTextContentFromMastraDBMessage(m));
  if (isObj(input) && Array.isArray(input.rememberedMessages)) for (const m of input.rememberedMessages) parts.push(getTextContentFromMastraDBMessage(m));
  parts.push(...getSystemMessagesFromRunInput(input));
  return parts.filter(Boolean).join('\n');
}

/**
 * Read a run.
 *
 * @example
 * ```ts
 * const s = runSources(run, ['Refunds take 14 days.']);
 * s.tools.map((t) => t.toolName); // ['lookupOrder']
 * ```
 */
export function runSources(run: PreparedRun, staticContext: readonly string[] = []): RunSources {
  const f = facts(run);
  const live = Array.isArray(f?.toolResults) ? (f.toolResults as Obj[]) : undefined;
  const tools: ToolSource[] = (live ?? extractToolResults(run.output)).map((t) => ({ toolName: typeof t.toolName === 'string' ? t.toolName : '', args: t.args, result: t.result }));
  const documents = [...(Array.isArray(f?.context) ? (f.context as unknown[]).filter((d): d is string => typeof d === 'string') : []), ...staticContext];
  const start = startOf(run, f);
  const day = start === undefined ? undefined : isoDay(new Date(start));
  const failures = toolFailures(run.output).map((x) => `${x.tool}: ${x.error}`);
  return {
    failures,
    answer: getAssistantMessageFromRunOutput(run.output) ?? '',
    tools,
    documents,
    givenText: [givenOf(run.input), ...tools.map((t) => (t.args === undefined ? '' : JSON.stringify(t.args)))].join('\n'),
    question: getUserMessageFromRunInput(run.input) ?? '',
    ...(day ? { day } : {}),
  };
}

/**
 * Whether a tool result carries something: not null, not empty, not an error object, not a not-found answer.
 * A refusal after such a result is a non-answer; after an empty one, "I could not find it" is the truth.
 */
export function substantive(result: unknown): boolean {
  if (result === null || result === undefined) return false;
  if (typeof result === 'string') {
    const t = result.trim();
    if (t === '' || t === '""' || t === '[]' || t === '{}' || t === 'null') return false;
    if (/^"?(?:error|not found|no results?|none|unknown)\b/i.test(t)) return false;
    try {
      const parsed: unknown = JSON.parse(t);
      if (typeof parsed !== 'string') return substantive(parsed);
    } catch {
      // plain text
    }
    return true;
  }
  if (Array.isArray(result)) return result.some(substantive);
  if (isObj(result)) {
    const keys = Object.keys(result);
    if (keys.length === 0) return false;
    if (result.error !== undefined && result.error !== null && result.error !== false) return false;
    if (result.found === false || result.exists === false) return false;
    const status = typeof result.status === 'string' ? result.status.toLowerCase() : '';
    if (/^(?:not[ _-]?found|error|failed|unknown)$/.test(status)) return false;
    const values = Object.values(result);
    if (values.every((v) => v === null || (Array.isArray(v) && v.length === 0))) return false;
    // A search that found nothing: every list empty and no count above zero (`{ total: 0, orders: [] }`).
    const lists = values.filter(Array.isArray);
    if (lists.length > 0 && lists.every((l) => l.length === 0) && !values.some((v) => typeof v === 'number' && v > 0)) return false;
    return true;
  }
  return true;
}
