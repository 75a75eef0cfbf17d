/**
 * The one reliability wrapper every emitter uses: a bounded buffer in front of a `RecordSender`, batching,
 * retries with exponential backoff, failure accounting, and a shutdown that flushes within a deadline.
 *
 * `emit()` resolves when the records have been delivered (`success`), refused for good (`permanent`), or could not
 * be delivered within the retry budget (`retryable`: the caller may hand them back later, e.g. by not committing a
 * Kafka offset). When the buffer is full `emit()` answers `retryable` at once instead of queueing without bound.
 */
import { randomInt } from 'node:crypto';
import { errorMessage } from '../errors.js';
import { componentSettings, raceDeadline, type ComponentSettings } from '../component.js';
import { ThrottledLog } from '../telemetry/log.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult, Emitter } from './emitter.js';

/** Delivers one batch; failure is a returned value, never a throw (a throw is treated as retryable). */
export interface RecordSender {
  readonly name: string;
  send(records: readonly ScoreRecord[]): Promise<EmitResult>;
  /** Connect or open (the emitter's start); without it the first send does. A rejection fails the start. */
  open?(): Promise<void>;
  /** Release connections and files; called once, after the last send. */
  close?(deadline: number): Promise<void>;
}

export interface BufferedEmitterOptions {
  /** Records buffered at most (queued, not yet delivered). */
  maxRecords: number;
  /** Records per `send` call (whole `emit()` calls are never split, so a batch may exceed it by one call). */
  maxBatchRecords: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Attempts per batch, the first included. */
  maxAttempts: number;
  /** Interval of the "permanent failure" warning (one line with a count per interval). */
  logIntervalMs?: number;
}

interface Pending {
  records: readonly ScoreRecord[];
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
    this.permanentLog = new ThrottledLog(settings.logger, `emitter ${sender.name}: records refused permanently`, options.logIntervalMs ?? 10_000);
  }

  /** Opens the sender when it has an `open` step (e.g. checks a file path); otherwise the first send does. */
  async start(): Promise<void> {
    await this.sender.open?.();
  }

  /** Records waiting in the buffer (for tests and health). */
  get buffered(): number {
    return this.queuedRecords;
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
      this.count(records.length, 'rejected');
      return Promise.resolve({ code: 'permanent', error: new Error(`${this.name}: ${SHUTDOWN_ERROR}`) });
    }
    if (this.queuedRecords + records.length > this.options.maxRecords && this.queuedRecords > 0) {
      this.count(records.length, 'rejected');
      return Promise.resolve({
        code: 'retryable',
        error: new Error(`${this.name}: buffer full (${this.queuedRecords} of ${this.options.maxRecords} records)`),
        retryAfterMs: this.options.initialBackoffMs,
      });
    }
    return new Promise<EmitResult>((resolve) => {
      this.queue.push({ records, resolve, at: Date.now() });
      this.queuedRecords += records.length;
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
      const result = await this.sendWithRetry(records).finally(() => (this.sendingSince = undefined));
      this.queuedRecords -= records.length;
      if (result.code === 'success') this.count(records.length, 'sent');
      else if (result.code === 'permanent') {
        this.count(records.length, 'failed');
        this.permanentLog.hit(records.length, { emitter: this.name, err: errorMessage(result.error) });
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

  private async sendWithRetry(records: readonly ScoreRecord[]): Promise<EmitResult> {
    let backoff = this.options.initialBackoffMs;
    let result: EmitResult = { code: 'retryable', error: new Error(`${this.name}: not attempted`) };
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      result = await this.trySend(records);
      if (result.code !== 'retryable' || attempt === this.options.maxAttempts) return result;
      const jittered = Math.round(backoff * (0.8 + randomInt(0, 401) / 1000));
      const wait = Math.min(Math.max(result.retryAfterMs ?? jittered, 0), this.options.maxBackoffMs);
      if (Date.now() + wait >= this.deadline) return result;
      await this.sleep(wait);
      if (Date.now() >= this.deadline) return result;
      backoff = Math.min(backoff * 2, this.options.maxBackoffMs);
    }
    return result;
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
      this.count(p.records.length, 'rejected');
      p.resolve({ code, error });
    }
  }

  private count(n: number, outcome: 'sent' | 'failed' | 'rejected'): void {
    this.settings.telemetry.instruments.emitRecords.add(n, { emitter: this.name, outcome });
  }
}
