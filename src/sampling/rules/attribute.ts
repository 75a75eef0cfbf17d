/**
 * `attribute`: matches by an attribute of the run's resource, agent span or any span of its subtree
 * (`service.name`, `deployment.environment`, a customer tier). Exactly one test: `equals` (compared as
 * text, so YAML `3` matches an int attribute 3), `regex` (unanchored, against the text form) or `exists`.
 * Array attributes match when any element does.
 */
import type { AttributeValue, Attributes } from '../../model/span.js';
import { agentSpanOf } from '../agent-span.js';
import type { Predicate, SamplingInput } from '../types.js';

export type AttributeScope = 'any' | 'resource' | 'spans' | 'agent';

export interface AttributeOptions {
  key: string;
  equals?: string | number | boolean;
  regex?: string;
  exists?: boolean;
  in?: AttributeScope;
}

function scalarText(v: AttributeValue): string | undefined {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(v);
    default:
      return undefined;
  }
}

function valueMatches(v: AttributeValue, test: (s: string) => boolean): boolean {
  if (Array.isArray(v)) return v.some((e) => valueMatches(e, test));
  const s = scalarText(v);
  return s !== undefined && test(s);
}

function* attributeSets(input: SamplingInput, scope: AttributeScope): Generator<Attributes> {
  if (scope === 'resource' || scope === 'any') yield input.resourceAttributes;
  if (scope === 'agent') {
    const span = agentSpanOf(input);
    if (span) yield span.attributes;
  }
  if (scope === 'spans' || scope === 'any') for (const s of input.spans) yield s.attributes;
}

export function attributePredicate(options: AttributeOptions): Predicate {
  const scope = options.in ?? 'any';
  const { key } = options;
  let test: ((v: AttributeValue) => boolean) | undefined;
  let what: string;
  if (options.equals !== undefined) {
    const want = String(options.equals);
    test = (v) => valueMatches(v, (s) => s === want);
    what = `${key} = ${JSON.stringify(options.equals)}`;
  } else if (options.regex !== undefined) {
    const re = new RegExp(options.regex);
    test = (v) => valueMatches(v, (s) => re.test(s));
    what = `${key} ~ /${options.regex}/`;
  } else {
    what = options.exists === false ? `${key} is absent` : `${key} exists`;
  }
  const wantPresent = options.exists !== false;
  return {
    evaluate(input: SamplingInput): boolean {
      let present = false;
      for (const attrs of attributeSets(input, scope)) {
        if (!Object.hasOwn(attrs, key)) continue;
        const v = attrs[key] as AttributeValue;
        if (v === null) continue;
        present = true;
        if (test?.(v)) return true;
      }
      return test ? false : present === wantPresent;
    },
    describe: () => `${what} (on ${scope === 'any' ? 'resource or spans' : scope})`,
  };
}
