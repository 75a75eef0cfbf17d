/**
 * A user mapping for in-house conventions (config `extract.mapping`): rules say which spans are agent
 * runs, LLM calls, tools or retrievers (by name glob or attribute), and which attributes or JSON paths
 * hold their values. The first matching rule wins for a span.
 */
import picomatch from 'picomatch';
import type { FieldRef, MappingRule } from '../../config/sections/extract.js';
import type { Span } from '../../model/span.js';
import { anyToMessages, outputText, textOfContent } from '../messages.js';
import { asCount, asString, attr, isRecord, parseJsonish } from '../values.js';
import { Deferred } from './lazy.js';
import { Facts, type ConventionSelector, type SpanFacts } from './types.js';

type PathStep = string | number;

/** Parses `$.a.b[0]['c.d'][-1]` into steps. The schema has already checked the syntax. */
function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const re = /\.([^.[\]]+)|\[(-?\d+)\]|\['([^']*)'\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) !== null) {
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(m[3] ?? '');
  }
  return steps;
}

function walk(value: unknown, steps: PathStep[]): unknown {
  let cur: unknown = value;
  for (const s of steps) {
    cur = parseJsonish(cur);
    if (typeof s === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[s < 0 ? cur.length + s : s];
    } else {
      if (!isRecord(cur) || !Object.prototype.hasOwnProperty.call(cur, s)) return undefined;
      cur = cur[s];
    }
  }
  return cur;
}

/** Reads a field reference from a span; `undefined` when absent. */
function readRef(span: Span, ref: FieldRef | undefined): unknown {
  if (ref === undefined) return undefined;
  const key = typeof ref === 'string' ? ref : ref.attribute;
  const raw = key === '$name' ? span.name : attr(span.attributes, key);
  if (raw === undefined) return undefined;
  if (typeof ref === 'string' || !ref.path) return parseJsonish(raw);
  const v = walk(parseJsonish(raw), parsePath(ref.path));
  return v === undefined ? undefined : parseJsonish(v);
}

interface CompiledRule {
  rule: MappingRule;
  nameMatch: ((s: string) => boolean) | undefined;
}

function matches(c: CompiledRule, span: Span): boolean {
  if (c.nameMatch && !c.nameMatch(span.name)) return false;
  const key = c.rule.attribute;
  if (key !== undefined) {
    const v = attr(span.attributes, key);
    if (v === undefined) return false;
    if (c.rule.equals !== undefined && v !== c.rule.equals && asString(v) !== String(c.rule.equals)) return false;
  }
  return true;
}

function read(rule: MappingRule, span: Span): SpanFacts {
  const facts: SpanFacts = new Facts();
  facts.role = rule.role;
  const name = asString(readRef(span, rule.agentName));
  if (name) facts.agentName = name;
  const input = readRef(span, rule.input);
  if (input !== undefined) facts.input = Deferred.of(() => anyToMessages(input));
  const output = readRef(span, rule.output);
  if (output !== undefined) {
    const t = outputText(output);
    facts.output = t ? [{ role: 'assistant', text: t }] : [];
  }
  const system = readRef(span, rule.system);
  if (system !== undefined) {
    const t = typeof system === 'string' ? system : textOfContent(system) || outputText(system);
    if (t) facts.system = Deferred.known([t]);
  }
  if (rule.role === 'tool') {
    const result = readRef(span, rule.toolResult);
    facts.tool = { hasResult: result !== undefined };
    const toolName = asString(readRef(span, rule.toolName)) ?? span.name;
    facts.tool.name = toolName;
    const id = asString(readRef(span, rule.toolCallId));
    if (id) facts.tool.callId = id;
    const args = readRef(span, rule.toolArgs);
    if (args !== undefined) facts.tool.args = args;
    if (result !== undefined) facts.tool.result = result;
  }
  const docs = readRef(span, rule.documents);
  if (docs !== undefined) {
    const list = Array.isArray(docs) ? docs : [docs];
    const texts = list.map((d) => (typeof d === 'string' ? d : textOfContent(d) || outputText(d))).filter((t) => t.length > 0);
    if (texts.length > 0) facts.documents = texts;
  }
  const model = asString(readRef(span, rule.model));
  if (model) facts.model = model;
  const inputTokens = asCount(readRef(span, rule.inputTokens));
  const outputTokens = asCount(readRef(span, rule.outputTokens));
  if (inputTokens !== undefined || outputTokens !== undefined) facts.usage = { inputTokens, outputTokens };
  return facts;
}

/** Builds the mapping selector from config rules (compiled once). */
export function createMappingSelector(rules: readonly MappingRule[]): ConventionSelector {
  const compiled: CompiledRule[] = rules.map((rule) => ({ rule, nameMatch: rule.name ? picomatch(rule.name, { dot: true }) : undefined }));
  const find = (span: Span): CompiledRule | undefined => compiled.find((c) => matches(c, span));
  return {
    name: 'mapping',
    detect: (span) => compiled.length > 0 && find(span) !== undefined,
    read: (span) => {
      const c = find(span);
      return c ? read(c.rule, span) : {};
    },
  };
}
