/**
 * The one reliability wrapper every emitter uses: a buffer bounded in records and bytes in front of a
 * `RecordSender`, batching, retries with exponential backoff within a time budget (`maxElapsedMs`, like the
 * Collector's exporter helper), failure accounting, and a shutdown that flushes within a deadline.
 *
 * `emit()` resolves when the records have been delivered (`success`), refused for good (`permanent`), or could not
 * be delivered within the retry budget (`retryable`: the caller may hand them back later, e.g. by not committing a
 * Kafka offset). When the buffer is full `emit()` answers `retryable` at once instead of queueing without bound.
 *
 * While sends fail, each failure is a debug line; one warning per `logIntervalMs` names the emitter, its
 * destination and the records held, and an info line says when it delivers again.
 */
import { randomInt } from 'node:crypto';
import { errorMessage } from '../errors.js';
import { componentSettings, raceDeadline, type ComponentSettings } from '../component.js';
import { ThrottledLog } from '../telemetry/log.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { DropReason, EmitResult, Emitter } from './emitter.js';

/** Delivers one batch; failure is a returned value, never a throw (a throw is treated as retryable). */
export interface RecordSender {
  readonly name: string;
  /** Where records go, for logs (a URL, a topic and its brokers, a file path). */
  readonly destination?: string;
  send(records: readonly ScoreRecord[]): Promise<EmitResult>;
  /** Connect or open (the emitter's start); without it the first send does. A rejection fails the start. */
  open?(): Promise<void>;
  /** Release connections and files; called once, after the last send. */
  close?(deadline: number): Promise<void>;
}

export interface BufferedEmitterOptions {
  /** Records buffered at most (queued, not yet delivered). */
  maxRecords: number;
  /** Estimated bytes buffered at most ({@link estimateRecordBytes}); default unbounded. */
  maxBytes?: number;
  /** Records per `send` call (whole `emit()` calls are never split, so a batch may exceed it by one call). */
  maxBatchRecords: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Time budget of a batch's retries, from its first attempt (default 5 minutes). No retry starts after it. */
  maxElapsedMs?: number;
  /** Attempts per batch, the first included (default: unbounded; the time budget decides). */
  maxAttempts?: number;
  /**
   * When the budget is spent: `hold` (default) hands the records back as `retryable` (the caller keeps them and
   * offers them again); `drop` drops them (`permanent`, reason `retry_exhausted`, counted), an explicit choice
   * of losing records over holding the sources back.
   */
  onExhausted?: 'hold' | 'drop';
  /** Interval of the failure warnings (one line per interval). */
  logIntervalMs?: number;
}

/** Default of {@link BufferedEmitterOptions.maxElapsedMs}: 5 minutes, the Collector's `retry_on_failure.max_elapsed_time`. */
export const DEFAULT_MAX_ELAPSED_MS = 300_000;

/**
 * A record's size estimate for the byte bound: its strings (UTF-16 length, close to UTF-8 for ASCII) plus
 * a fixed allowance for numbers, keys and framing. Cheap: no serialisation on the hot path.
 */
export function estimateRecordBytes(r: ScoreRecord): number {
  return (
    160 +
    r.evaluationId.length +
    r.traceId.length +
    r.spanId.length +
    r.agentName.length +
    r.scorer.length +
    r.scorerVersion.length +
    r.timestamp.length +
    (r.reason?.length ?? 0) +
    (r.judgeModel?.length ?? 0) +
    (r.startTime?.length ?? 0) +
    (r.error ? r.error.type.length + r.error.message.length + 24 : 0)
  );
}

function estimateBytes(records: readonly ScoreRecord[]): number {
  let n = 0;
  for (const r of records) n += estimateRecordBytes(r);
  return n;
}

interface Pending {
  records: readonly ScoreRecord[];
  bytes: number;
  resolve: (result: EmitResult) => void;
  /** When it was handed in (ms since epoch), for {@link BufferedEmitter.heldSinceMs}. */
  at?: number;
}

const SHUTDOWN_ERROR = 'emitter is shut down';

/** Wraps a sender with bounded buffering, retries and a deadline-bound flush. */
export class BufferedEmitter implements Emitter {
  readonly name: string;
  private readonly queue: Pending[] = [];
  private queuedRecords = 0;
  private queuedBytes = 0;
  /** When the current run of failed sends began (undefined while sends succeed), and when it was last reported. */
  private failingSince: number | undefined;
  private reportedAt: number | undefined;
  private readonly maxBytes: number;
  private readonly maxElapsedMs: number;
  private readonly maxAttempts: number;
  private readonly logIntervalMs: number;
  private running: Promise<void> | undefined;
  private closed = false;
  private deadline = Number.POSITIVE_INFINITY;
  private shutdownPromise: Promise<void> | undefined;
  private wakeSleep: (() => void) | undefined;
  /** When the oldest record of the batch being sent was handed in (heldSinceMs). */
  private sendingSince: number | undefined;
  private readonly permanentLog: ThrottledLog;

  private readonly settings: ComponentSettings;

  constructor(
    private readonly sender: RecordSender,
    private readonly options: BufferedEmitterOptions,
    settings: ComponentSettings = componentSettings(),
  ) {
    this.name = sender.name;
    this.settings = settings;
    this.logIntervalMs = options.logIntervalMs ?? 10_000;
    this.permanentLog = new ThrottledLog(settings.logger, `emitter ${sender.name}: records dropped`, this.logIntervalMs);
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.maxElapsedMs = options.maxElapsedMs ?? DEFAULT_MAX_ELAPSED_MS;
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  }

  /** Opens the sender when it has an `open` step (e.g. checks a file path); otherwise the first send does. */
  async start(): Promise<void> {
    await this.sender.open?.();
  }

  /** Records waiting in the buffer (for tests and health). */
  get buffered(): number {
    return this.queuedRecords;
  }

  /** Estimated bytes of the records waiting in the buffer. */
  get bufferedBytes(): number {
    return this.queuedBytes;
  }

  /** When the oldest record it holds undelivered (queued or being sent) was handed in; undefined when it holds none. */
  heldSinceMs(): number | undefined {
    const queued = this.queue[0]?.at;
    if (this.sendingSince === undefined) return queued;
    return queued === undefined ? this.sendingSince : Math.min(queued, this.sendingSince);
  }

  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    if (records.length === 0) return Promise.resolve({ code: 'success' });
    if (this.closed) {
      // Not delivered, and not refused for what the records are: the caller keeps them (redelivery after a restart).
      this.count(records.length, 'rejected');
      return Promise.resolve({ code: 'retryable', error: new Error(`${this.name}: ${SHUTDOWN_ERROR}`) });
    }
    const bytes = estimateBytes(records);
    if ((this.queuedRecords + records.length > this.options.maxRecords || this.queuedBytes + bytes > this.maxBytes) && this.queuedRecords > 0) {
      this.count(records.length, 'rejected');
      return Promise.resolve({
        code: 'retryable',
        error: new Error(`${this.name}: buffer full (${this.queuedRecords} of ${this.options.maxRecords} records, ~${this.queuedBytes} of ${this.maxBytes} bytes)`),
        retryAfterMs: this.options.initialBackoffMs,
      });
    }
    return new Promise<EmitResult>((resolve) => {
      this.queue.push({ records, bytes, resolve, at: Date.now() });
      this.queuedRecords += records.length;
      this.queuedBytes += bytes;
      this.kick();
    });
  }

  shutdown(deadline: number): Promise<void> {
    this.shutdownPromise ??= this.doShutdown(deadline);
    return this.shutdownPromise;
  }

  private async doShutdown(deadline: number): Promise<void> {
    this.closed = true;
    this.deadline = deadline;
    this.wakeSleep?.();
    if (this.running) await raceDeadline(this.running, deadline);
    // Whatever is still queued at the deadline is handed back to its callers.
    this.failQueued('retryable', new Error(`${this.name}: shutdown deadline reached before delivery`));
    try {
      if (this.sender.close) await raceDeadline(this.sender.close(deadline), deadline);
    } catch (err) {
      this.settings.logger.warn({ emitter: this.name, err: errorMessage(err) }, 'emitter close failed');
    }
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0 && Date.now() < this.deadline) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && Date.now() < this.deadline) {
      const batch = this.takeBatch();
      const records = batch.flatMap((p) => p.records);
      this.sendingSince = batch[0]?.at;
      let result = await this.sendWithRetry(records).finally(() => (this.sendingSince = undefined));
      this.queuedRecords -= records.length;
      for (const p of batch) this.queuedBytes -= p.bytes;
      if (result.code === 'retryable' && this.options.onExhausted === 'drop' && !this.closed) {
        result = { code: 'permanent', reason: 'retry_exhausted', error: new Error(`${this.name}: retry budget spent; dropped by emit.retry.onExhausted: drop (${errorMessage(result.error)})`) };
      }
      if (result.code === 'success') this.count(records.length, 'sent');
      else if (result.code === 'permanent') {
        result = { ...result, reason: result.reason ?? 'refused' };
        this.count(records.length, 'dropped', result.reason);
        this.permanentLog.hit(records.length, { emitter: this.name, reason: result.reason, err: errorMessage(result.error) });
      } else this.count(records.length, 'failed');
      for (const p of batch) p.resolve(result);
    }
  }

  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    let n = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (!next || (batch.length > 0 && n + next.records.length > this.options.maxBatchRecords)) break;
      batch.push(next);
      n += next.records.length;
      this.queue.shift();
    }
    return batch;
  }

  /**
   * Sends until delivered, refused, or out of budget: no retry starts once `maxElapsedMs` has passed since the
   * first attempt (the last wait is shortened to end at the budget), nor after `maxAttempts`, nor past the
   * shutdown deadline.
   */
  private async sendWithRetry(records: readonly ScoreRecord[]): Promise<EmitResult> {
    let backoff = this.options.initialBackoffMs;
    const startedAt = Date.now();
    const budgetEnd = startedAt + this.maxElapsedMs;
    let result: EmitResult = { code: 'retryable', error: new Error(`${this.name}: not attempted`) };
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      result = await this.trySend(records);
      if (result.code === 'success') this.recovered();
      else if (result.code === 'retryable') this.failing(result.error);
      if (result.code !== 'retryable' || attempt >= this.maxAttempts) return result;
      const now = Date.now();
      if (now >= budgetEnd) return result;
      const jittered = Math.round(backoff * (0.8 + randomInt(0, 401) / 1000));
      const wait = Math.min(Math.max(result.retryAfterMs ?? jittered, 0), this.options.maxBackoffMs, budgetEnd - now);
      if (now + wait >= this.deadline) return result;
      await this.sleep(wait);
      if (Date.now() >= this.deadline) return result;
      backoff = Math.min(backoff * 2, this.options.maxBackoffMs);
    }
    return result;
  }

  /**
   * A retryable failure: a debug line each; a warning with what is held once per interval, from the moment the
   * failures have lasted a few seconds (a first send that waits for a topic to be created is not an outage).
   */
  private failing(error: Error): void {
    const now = Date.now();
    this.failingSince ??= now;
    const log = this.settings.logger;
    const fields = { emitter: this.name, destination: this.sender.destination, recordsHeld: this.queuedRecords, bytesHeld: this.queuedBytes, failingMs: now - this.failingSince, err: errorMessage(error) };
    const quiet = now - this.failingSince < Math.min(this.logIntervalMs, 5_000);
    if (!quiet && (this.reportedAt === undefined || now - this.reportedAt >= this.logIntervalMs)) {
      this.reportedAt = now;
      log.warn(fields, `emitter ${this.name} cannot deliver to ${this.sender.destination ?? 'its destination'}; records held, retrying`);
    } else log.debug(fields, `emitter ${this.name}: send failed; retrying`);
  }

  private recovered(): void {
    if (this.failingSince === undefined) return;
    if (this.reportedAt !== undefined) {
      this.settings.logger.info({ emitter: this.name, destination: this.sender.destination, failedMs: Date.now() - this.failingSince }, `emitter ${this.name} delivers again`);
    }
    this.failingSince = undefined;
    this.reportedAt = undefined;
  }

  private async trySend(records: readonly ScoreRecord[]): Promise<EmitResult> {
    try {
      return await this.sender.send(records);
    } catch (err) {
      return { code: 'retryable', error: err instanceof Error ? err : new Error(errorMessage(err)) };
    }
  }

  /** A backoff sleep; shutdown shortens it to the deadline (the check after it decides what happens next). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const until = Date.now() + ms;
      const finish = (): void => {
        this.wakeSleep = undefined;
        resolve();
      };
      let timer = setTimeout(finish, ms);
      timer.unref();
      this.wakeSleep = () => {
        clearTimeout(timer);
        timer = setTimeout(finish, Math.max(0, Math.min(until, this.deadline) - Date.now()));
        timer.unref();
      };
    });
  }

  private failQueued(code: 'retryable' | 'permanent', error: Error): void {
    const pending = this.queue.splice(0);
    for (const p of pending) {
      this.queuedRecords -= p.records.length;
      this.queuedBytes -= p.bytes;
      this.count(p.records.length, 'rejected');
      p.resolve({ code, error });
    }
  }

  /**
   * `sent`; `failed`: not delivered within the retry budget, handed back to the caller (not lost: offered again);
   * `rejected`: refused at once (buffer full, shut down), handed back; `dropped` with a `reason`: lost on purpose.
   */
  private count(n: number, outcome: 'sent' | 'failed' | 'rejected' | 'dropped', reason?: DropReason): void {
    this.settings.telemetry.instruments.emitRecords.add(n, reason ? { emitter: this.name, outcome, reason } : { emitter: this.name, outcome });
  }
}
