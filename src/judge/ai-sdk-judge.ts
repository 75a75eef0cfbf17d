/**
 * The judge port over the AI SDK (`ai@6`): `streamText` (server-sent events, as Mastra's client asks for
 * them) or, with `stream: false`, `generateText`; `Output.object` for structured steps, plain text for
 * reason steps. It owns the reliability of every judge call: its own retry loop (the SDK runs with
 * `maxRetries: 0`), a hard timeout per HTTP call that covers reading the whole stream, a streamed answer
 * used only once complete (a broken one is retried), one re-ask when an answer does not fit the schema, a
 * per-model concurrency limit, and per-call token and latency accounting through the service's
 * instruments. Error messages have the service's secrets scrubbed.
 */
import type { LanguageModel, ModelMessage } from 'ai';
import { loadAi } from './ai-lazy.js';
import type { z } from 'zod';
import type { ComponentSettings } from '../component.js';
import type { JudgeCallArgs, JudgeCallMeta, JudgeModelPort, JudgeUsage } from './port.js';
import type { JudgeScopes } from './economics/scope.js';
import { JudgeError, type JudgeFailureKind } from './errors.js';
import { schemaMismatchReason } from './mismatch.js';
import { backoffMs, classifyCallError, sleep } from './retry.js';
import type { Semaphore } from './semaphore.js';
import { BrokenStreamError, readJudgeStream, reportingUsage, type ReportedUsage, type UsageSink } from './stream-read.js';

/** Reliability settings of one judge model. */
export interface JudgeCallPolicy {
  temperature: number;
  timeoutMs: number;
  maxRetries: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  maxRetryAfterMs: number;
  /** Ask for server-sent events (`streamText`); false: one JSON answer per call (`generateText`). */
  stream: boolean;
}

export interface AiSdkJudgeOptions extends JudgeCallPolicy {
  /** An AI SDK language model object, e.g. `createOpenAI({ baseURL, apiKey }).chat('gpt-4o-mini')`. */
  model: Exclude<LanguageModel, string>;
  modelId: string;
  provider?: string;
  /** Shared by every port of the same judge model. */
  semaphore: Semaphore;
  /** Aborts every call of this port (service shutdown). */
  signal?: AbortSignal;
  settings: ComponentSettings;
  /** Agent and scorer attributes of the call on its metrics. */
  scopes?: JudgeScopes;
}

/** Running totals of one logical judge call (re-ask and retries included). */
interface Tally {
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  modelCalls: number;
  attempts: number;
  startedAt: number;
}

type Outcome = 'success' | 'retry' | 'timeout' | 'schema' | 'quota' | 'error';
type Ai = Awaited<ReturnType<typeof loadAi>>;

/** What one HTTP call returned: the answer and the tokens it cost. */
interface Answer<T> {
  value: T;
  usage: ReportedUsage;
}

/**
 * `streamText` settings of every streamed call: errors are read from the stream's parts
 * (src/judge/stream-read.ts), so the SDK's default `onError`, which writes them to the console, is replaced.
 */
const STREAMED = { onError: (): void => undefined } as const;

const REASK_TEXT =
  'Your previous answer could not be used: {reason}. Answer again with one JSON object that matches the required schema exactly, with no text before or after it.';

function usageOf(u: ReportedUsage | undefined): {
  input: number;
  output: number;
  total: number;
} {
  const input = u?.inputTokens ?? 0;
  const output = u?.outputTokens ?? 0;
  return { input, output, total: u?.totalTokens ?? input + output };
}

/** A judge that serves the engine's prompt-object steps. */
export class AiSdkJudge implements JudgeModelPort {
  readonly modelId: string;
  readonly provider: string | undefined;

  constructor(private readonly options: AiSdkJudgeOptions) {
    this.modelId = options.modelId;
    this.provider = options.provider;
  }

  /** Structured answer parsed with `schema`; one re-ask on a misfit, then a TJ_JUDGE_SCHEMA failure. */
  async generateObject<S extends z.ZodType>(args: JudgeCallArgs & { schema: S }): Promise<JudgeCallMeta & { object: z.infer<S> }> {
    const ai = await loadAi();
    const { NoObjectGeneratedError, NoOutputGeneratedError } = ai;
    const tally = this.newTally();
    let messages: ModelMessage[] = [{ role: 'user', content: args.prompt }];
    for (;;) {
      tally.attempts++;
      const first = tally.attempts === 1;
      try {
        const result = await this.callWithRetries(tally, args, (signal) => this.objectCall(ai, signal, args.instructions, messages, args.schema));
        return { object: result.value, ...this.meta(tally) };
      } catch (err) {
        if (!(NoObjectGeneratedError.isInstance(err) || NoOutputGeneratedError.isInstance(err))) throw err;
        const text = NoObjectGeneratedError.isInstance(err) ? (err.text ?? '') : '';
        const reason = schemaMismatchReason(err);
        if (!first) {
          throw this.failure('schema', `judge answer did not fit the ${args.stepName} schema after one re-ask: ${reason}`, tally, args, {
            rawOutput: text,
            ...(NoObjectGeneratedError.isInstance(err) && err.finishReason ? { finishReason: err.finishReason } : {}),
          });
        }
        this.options.settings.logger.debug({ scorer: args.scorerId, step: args.stepName, model: this.modelId, reason }, 'judge answer did not fit the schema; re-asking once');
        messages = [
          { role: 'user', content: args.prompt },
          { role: 'assistant', content: text === '' ? '(empty answer)' : text },
          { role: 'user', content: REASK_TEXT.replace('{reason}', reason) },
        ];
      }
    }
  }

  /** Plain text answer (reason steps). */
  async generateText(args: JudgeCallArgs): Promise<JudgeCallMeta & { text: string }> {
    const ai = await loadAi();
    const tally = this.newTally();
    tally.attempts = 1;
    const result = await this.callWithRetries(tally, args, (signal) => this.textCall(ai, signal, args.instructions, args.prompt));
    return { text: result.value, ...this.meta(tally) };
  }

  /**
   * One HTTP call for a structured answer. Throws the SDK's `NoObjectGeneratedError` when the answer does
   * not fit `schema` (streamed or not, the same parse), a `BrokenStreamError` for a stream that did not complete.
   */
  private async objectCall<S extends z.ZodType>(ai: Ai, signal: AbortSignal, system: string, messages: ModelMessage[], schema: S): Promise<Answer<z.infer<S>>> {
    const output = ai.Output.object({ schema });
    if (!this.options.stream) {
      const r = await ai.generateText({ ...this.common(signal), system, messages, output });
      return { value: r.output as z.infer<S>, usage: r.usage };
    }
    // Without its partial parse: `streamText` re-parses the whole answer so far at every delta to publish
    // partial objects, which the judge never reads (measured: 40 % of the CPU of a streamed 2 KB answer of
    // 490 deltas, 65 % at 10 KB). The answer is parsed once, when the stream has completed.
    const whole = { ...output, parsePartialOutput: () => Promise.resolve(undefined) };
    const sink: UsageSink = { usage: undefined };
    const r = ai.streamText({ ...this.common(signal), ...STREAMED, model: reportingUsage(ai, this.options.model, sink), system, messages, output: whole });
    const { usage } = await readJudgeStream(r.fullStream, signal, sink);
    return { value: (await r.output) as z.infer<S>, usage };
  }

  /** One HTTP call for a plain text answer (reason steps). */
  private async textCall(ai: Ai, signal: AbortSignal, system: string, prompt: string): Promise<Answer<string>> {
    if (!this.options.stream) {
      const r = await ai.generateText({ ...this.common(signal), system, prompt });
      return { value: r.text, usage: r.usage };
    }
    const sink: UsageSink = { usage: undefined };
    const r = ai.streamText({ ...this.common(signal), ...STREAMED, model: reportingUsage(ai, this.options.model, sink), system, prompt });
    const { usage } = await readJudgeStream(r.fullStream, signal, sink);
    return { value: await r.text, usage };
  }

  /**
   * Shared call settings. OpenAI's strict JSON-schema mode is off: it rejects optional fields, which the
   * reference judge schemas have; the answer is validated with the zod schema here instead.
   */
  private common(signal: AbortSignal): {
    model: Exclude<LanguageModel, string>;
    temperature: number;
    maxRetries: 0;
    abortSignal: AbortSignal;
    providerOptions: { openai: { strictJsonSchema: false } };
  } {
    return { model: this.options.model, temperature: this.options.temperature, maxRetries: 0, abortSignal: signal, providerOptions: { openai: { strictJsonSchema: false } } };
  }

  private newTally(): Tally {
    return { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, modelCalls: 0, attempts: 0, startedAt: performance.now() };
  }

  private meta(tally: Tally): JudgeCallMeta {
    const usage: JudgeUsage = { ...tally.usage };
    return {
      usage,
      durationMs: Math.round(performance.now() - tally.startedAt),
      modelId: this.modelId,
      ...(this.provider ? { provider: this.provider } : {}),
      attemptCount: tally.attempts,
      modelCallCount: tally.modelCalls,
    };
  }

  private record(outcome: Outcome, seconds: number, usage?: { input: number; output: number }): void {
    const t = this.options.settings.telemetry.instruments;
    // Agent and scorer attributes when the call runs inside a judge scope (economics accounting).
    const model = { 'gen_ai.request.model': this.modelId, ...this.options.scopes?.attributes() };
    t.judgeRequests.add(1, { ...model, outcome });
    t.judgeDuration.record(seconds, { ...model, outcome });
    if (usage && usage.input > 0) t.judgeTokens.add(usage.input, { ...model, 'gen_ai.token.type': 'input' });
    if (usage && usage.output > 0) t.judgeTokens.add(usage.output, { ...model, 'gen_ai.token.type': 'output' });
  }

  private addUsage(tally: Tally, u: { input: number; output: number; total: number }): void {
    tally.usage.inputTokens += u.input;
    tally.usage.outputTokens += u.output;
    tally.usage.totalTokens += u.total;
  }

  private failure(kind: JudgeFailureKind, message: string, tally: Tally, args: JudgeCallArgs, extra: { status?: number; providerCode?: string; rawOutput?: string; finishReason?: string } = {}): JudgeError {
    const scrub = (text: string): string => this.options.settings.secrets.scrub(text);
    const { rawOutput, ...rest } = extra;
    return new JudgeError(scrub(`judge ${this.modelId} (${args.scorerId}/${args.stepName}): ${message}`), {
      kind,
      modelId: this.modelId,
      modelCallCount: tally.modelCalls,
      attemptCount: Math.max(1, tally.attempts),
      usage: { ...tally.usage },
      durationMs: Math.round(performance.now() - tally.startedAt),
      ...rest,
      ...(rawOutput !== undefined ? { rawOutput: scrub(rawOutput) } : {}),
    });
  }

  /**
   * One answer: HTTP calls under the model's semaphore, each with a hard timeout, retried on 408/409/429/5xx
   * and network errors. The slot is released while waiting to retry.
   */
  private async callWithRetries<T>(tally: Tally, args: JudgeCallArgs, call: (signal: AbortSignal) => Promise<Answer<T>>): Promise<Answer<T>> {
    const o = this.options;
    const { NoObjectGeneratedError, NoOutputGeneratedError } = await loadAi();
    for (let retry = 0; ; retry++) {
      if (o.signal?.aborted) throw this.failure('aborted', 'judge is shutting down', tally, args);
      let release: () => void;
      try {
        release = await o.semaphore.acquire(o.signal);
      } catch {
        throw this.failure('aborted', 'judge is shutting down', tally, args);
      }
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`judge call exceeded ${o.timeoutMs} ms`, 'TimeoutError'));
      }, o.timeoutMs);
      const onShutdown = (): void => controller.abort(o.signal?.reason);
      o.signal?.addEventListener('abort', onShutdown, { once: true });
      const started = performance.now();
      tally.modelCalls++;
      try {
        const result = await call(controller.signal);
        const u = usageOf(result.usage);
        this.addUsage(tally, u);
        this.record('success', (performance.now() - started) / 1000, u);
        return result;
      } catch (err) {
        clearTimeout(timer);
        const seconds = (performance.now() - started) / 1000;
        // Tokens the server reported for a call that failed still count (an answer that did not fit, a
        // stream that broke after its usage block).
        const u = usageOf(NoObjectGeneratedError.isInstance(err) || err instanceof BrokenStreamError ? err.usage : undefined);
        this.addUsage(tally, u);
        if (timedOut) {
          this.record('timeout', seconds, u);
          throw this.failure('timeout', `no answer within timeoutMs=${o.timeoutMs}`, tally, args);
        }
        if (o.signal?.aborted) {
          this.record('error', seconds, u);
          throw this.failure('aborted', 'judge is shutting down', tally, args);
        }
        if (NoObjectGeneratedError.isInstance(err) || NoOutputGeneratedError.isInstance(err)) {
          this.record('schema', seconds, u);
          throw err;
        }
        const f = classifyCallError(err);
        const codes = { ...(f.status !== undefined ? { status: f.status } : {}), ...(f.providerCode ? { providerCode: f.providerCode } : {}) };
        if (!f.retry) {
          this.record(f.kind === 'quota' ? 'quota' : 'error', seconds, u);
          const what = f.kind === 'quota' ? `quota exhausted, not retried (${f.message})` : f.message;
          throw this.failure(f.kind, what, tally, args, codes);
        }
        if (retry >= o.maxRetries) {
          this.record('error', seconds, u);
          // Still throttled after every retry: a rate limit, not a server fault (error.type judge_rate_limited).
          throw this.failure(f.status === 429 ? 'rate_limited' : 'http', `${f.message} (gave up after ${retry + 1} calls)`, tally, args, codes);
        }
        if (f.retryAfterMs !== undefined && f.retryAfterMs > o.maxRetryAfterMs) {
          this.record('error', seconds, u);
          throw this.failure('rate_limited', `${f.message}; Retry-After ${Math.round(f.retryAfterMs)} ms exceeds maxRetryAfterMs=${o.maxRetryAfterMs}`, tally, args, codes);
        }
        this.record('retry', seconds, u);
        const wait = f.retryAfterMs ?? backoffMs(retry + 1, o.backoffInitialMs, o.backoffMaxMs);
        this.options.settings.logger.debug({ model: this.modelId, status: f.status, waitMs: Math.round(wait), retry: retry + 1 }, `judge call failed, retrying: ${f.message}`);
        release();
        release = () => undefined;
        try {
          await sleep(wait, o.signal);
        } catch {
          throw this.failure('aborted', 'judge is shutting down', tally, args);
        }
      } finally {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onShutdown);
        release();
      }
    }
  }
}
