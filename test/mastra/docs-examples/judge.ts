/**
 * The scripted judge the docs examples reach over HTTP: the stub OpenAI-compatible server of src/testing, on
 * 127.0.0.1, found through the environment exactly as a user's model string finds OpenAI (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`), so `model: 'openai/gpt-5.6-sol'` in an example needs no change.
 *
 * Answers are chosen from the request itself, never from the order of calls:
 * - a structured request (a JSON schema) gets the scripted answer whose keys are the schema's top-level
 *   properties (`{ claims }` for a claim extraction, `{ verdicts }` for the verdict step, …); among several, the
 *   first whose `when` text occurs in the prompt;
 * - a text request (a reason step) gets the scripted reason whose `when` occurs in the prompt, else the first;
 * - anything not scripted gets a value made from the schema ({@link fromSchema}): every field, arrays
 *   of one element, verdict-like strings `"yes"`, booleans `true`, numbers at their maximum (or 1). That is an
 *   "all good" verdict, enough for examples whose doc states no value.
 *
 * Every answer is streamed when the request asks for it (`stream: true`), as Mastra's client and tracejudge's
 * judge (`judge.stream`, default on) do; {@link unstreamedRequests} names the requests that were not.
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { reply, startStubJudge, type StubJudge, type StubReply, type StubRequest } from '../../../src/testing/stub-judge/index.js';

export const JUDGE_KEY = 'sk-docs-examples-5e1c7a93d2';

/** One scripted answer: an object for structured steps, a string for reason steps. */
export interface ScriptedAnswer {
  /** Text that must occur in the request's system or user text for this answer to apply. */
  when?: string;
  answer: Record<string, unknown> | string;
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: unknown[]; anyOf?: Schema[]; maximum?: number; minimum?: number };

/** A value that fits `schema`, favouring "all good" verdicts (see the module comment). */
export function fromSchema(schema: Schema | undefined, key = ''): unknown {
  if (!schema) return null;
  if (schema.enum && schema.enum.length > 0) return schema.enum.includes('yes') ? 'yes' : schema.enum[0];
  if (schema.anyOf?.[0]) return fromSchema(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      // Every property, optional ones too: two clients that mark different fields required (zod 3 and 4 emit
      // defaults differently) still get the same answer to the same schema.
      for (const k of Object.keys(schema.properties ?? {})) out[k] = fromSchema(schema.properties?.[k], k);
      return out;
    }
    case 'array':
      return [fromSchema(schema.items, key)];
    case 'string':
      return /verdict|result|answer/i.test(key) ? 'yes' : /level/i.test(key) ? 'high' : `${key || 'text'} (scripted)`;
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return schema.maximum ?? 1;
    default:
      return null;
  }
}

const topKeys = (schema: unknown): string[] => Object.keys((schema as Schema | undefined)?.properties ?? {}).sort();

/** The reply to one request under a script. */
export function answerRequest(script: readonly ScriptedAnswer[], req: StubRequest): StubReply {
  const text = `${req.system}\n\n${req.user}`;
  const applies = (a: ScriptedAnswer): boolean => a.when === undefined || text.includes(a.when);
  if (req.jsonSchema !== undefined) {
    const keys = topKeys(req.jsonSchema).join(',');
    const hit = script.find((a) => typeof a.answer === 'object' && applies(a) && Object.keys(a.answer).sort().join(',') === keys);
    return reply.json(hit ? hit.answer : fromSchema(req.jsonSchema as Schema));
  }
  const reason = script.find((a) => typeof a.answer === 'string' && applies(a)) ?? script.find((a) => typeof a.answer === 'string');
  return reply.text(typeof reason?.answer === 'string' ? reason.answer : 'The score is as computed because the scripted judge says so.');
}

/**
 * The judge requests that were not streamed: each that did not ask for `stream: true`, or was not answered
 * whole as server-sent events (`text/event-stream`), described in one line. Empty when every one was.
 */
export function unstreamedRequests(requests: readonly StubRequest[]): string[] {
  return requests
    .filter((r) => !(r.stream && r.response?.sse === true && r.response.whole))
    .map((r) => {
      const answered = !r.response ? 'not answered' : r.response.sse ? `${r.response.events} events, ${r.response.whole ? 'whole' : 'broken'}` : `JSON, status ${r.response.status}`;
      return `${r.api} request ${r.index} (model ${r.model ?? '?'}): stream ${String(r.stream)}, ${answered}`;
    });
}

/** The stub judge of a test file, with the environment pointing at it while the file's tests run. */
export interface DocsJudge {
  readonly stub: StubJudge;
  /** Replace the script (every later request is answered from it). */
  script(answers: readonly ScriptedAnswer[]): void;
}

/**
 * Starts the stub judge before the file's tests and points `OPENAI_BASE_URL` / `OPENAI_API_KEY` at it; stops it
 * after. Call at the top level of a test file.
 */
export function useDocsJudge(): DocsJudge {
  let stub: StubJudge | undefined;
  let answers: readonly ScriptedAnswer[] = [];
  beforeAll(async () => {
    stub = await startStubJudge({ script: (req) => answerRequest(answers, req) });
    vi.stubEnv('OPENAI_BASE_URL', stub.baseURL);
    vi.stubEnv('OPENAI_API_KEY', JUDGE_KEY);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await stub?.close();
  });
  return {
    get stub(): StubJudge {
      if (!stub) throw new Error('the docs judge is not started yet (use it inside a test)');
      return stub;
    },
    script(next) {
      answers = next;
    },
  };
}

/** A started docs judge (see {@link startDocsJudge}). */
export interface StartedDocsJudge extends DocsJudge {
  /** Stops the server and puts the environment back as it was. */
  close(): Promise<void>;
}

/**
 * Starts the stub judge now and points `OPENAI_BASE_URL` / `OPENAI_API_KEY` at it in `process.env`. For test files
 * that await it at their top level, before anything imports `@ai-sdk/openai`: that package's default `openai`
 * provider reads `OPENAI_BASE_URL` once, when it is first imported, as it does in a user's process.
 */
export async function startDocsJudge(): Promise<StartedDocsJudge> {
  let answers: readonly ScriptedAnswer[] = [];
  const stub = await startStubJudge({ script: (req) => answerRequest(answers, req) });
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  process.env.OPENAI_BASE_URL = stub.baseURL;
  process.env.OPENAI_API_KEY = JUDGE_KEY;
  const restore = (name: 'OPENAI_BASE_URL' | 'OPENAI_API_KEY', value: string | undefined): void => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  return {
    stub,
    script(next) {
      answers = next;
    },
    async close() {
      restore('OPENAI_BASE_URL', saved.base);
      restore('OPENAI_API_KEY', saved.key);
      await stub.close();
    },
  };
}
