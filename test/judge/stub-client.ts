/** Helpers of the judge tests against the stub judge. */
import { expect } from 'vitest';
import { judgeSection } from '../../src/config/sections/judge.js';
import { createJudgeClient, JudgeError, resolveJudgeSettings, type JudgeClient, type JudgeSettings } from '../../src/judge/index.js';
import type { StubJudge } from '../../src/testing/stub-judge/index.js';

/** A judge client on the stub judge, with test back-offs; each one is remembered in `made` for closing after the test. */
export function stubJudgeClient(stub: StubJudge, apiKey: string, made: Array<{ close(): void }>, overrides: Partial<JudgeSettings> = {}): JudgeClient {
  const settings = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: stub.baseURL });
  const c = createJudgeClient({ ...settings, apiKey, backoffInitialMs: 10, backoffMaxMs: 50, ...overrides });
  made.push(c);
  return c;
}

/** The JudgeError `p` rejects with (fails the test when it resolves or rejects with something else). */
export async function judgeFailure(p: Promise<unknown>): Promise<JudgeError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(JudgeError);
    return err as JudgeError;
  }
  throw new Error('expected the judge call to fail');
}
