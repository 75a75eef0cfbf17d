/**
 * A local write-ahead log of accepted OTLP requests: append-only segment files in one directory, one record
 * per request, a sequence number per record, and a checkpoint saying which records have settled (their
 * traces were scored and emitted, or deliberately dropped): the low watermark (every record below it), and
 * the records still unsettled above it, so records that settled out of order are not replayed either.
 *
 * Lifecycle: `recover(onRecord)` reads the log once at startup and hands every record at or above the
 * checkpoint to `onRecord` (tracked until `settle`), then opens a fresh segment for appends. `append` writes
 * a record synchronously (so records and sequence numbers follow the order of the calls); `durable` resolves
 * once the record is on disk per the fsync policy, with group commit: concurrent callers share one
 * fdatasync. A timer saves the checkpoint (when it changed) and deletes segments wholly below the low
 * watermark. `close` writes the final checkpoint and closes the segment; it is safe to call twice.
 */
import { closeSync, fdatasync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, truncateSync, unlinkSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import { componentSettings, type Component, type ComponentSettings } from '../../component.js';
import { checkpointText, needsReplay, readCheckpoint, writeCheckpoint } from './checkpoint.js';
import { lockDir } from './dir-lock.js';
import { encodeHeader, HEADER_BYTES, scanSegment, type WalRecord, type WalRecordKind } from './record.js';
import { SettleTracker } from './settle-tracker.js';

export interface WalOptions {
  dir: string;
  fsync: 'always' | 'interval' | 'never';
  segmentBytes: number;
  maxBytes: number;
  checkpointIntervalMs: number;
}

/** The log is at `maxBytes`: refuse the request (back-pressure); space comes back at a checkpoint, so retry after one. */
export class WalFullError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('the write-ahead log is full');
    this.name = 'WalFullError';
  }
}

/** The log is closed (shutting down) or not recovered yet. */
export class WalClosedError extends Error {
  constructor() {
    super('the write-ahead log is not open');
    this.name = 'WalClosedError';
  }
}

/** A damaged stretch found by `recover`. */
export interface WalProblem {
  file: string;
  /** Byte offset in `file` where the damage starts. */
  offset: number;
  /** `truncated`: a torn tail cut off the last segment; `skipped`: a damaged record passed over. */
  action: 'truncated' | 'skipped';
  reason: string;
}

/** What `recover` found. */
export interface WalRecovery {
  /** Records handed to `onRecord`. */
  replayed: number;
  /** Damaged stretches skipped (a truncated torn tail is not counted). */
  skipped: number;
  problems: WalProblem[];
}

interface Segment {
  firstSeq: number;
  path: string;
  bytes: number;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

const SEGMENT_RE = /^(\d{16})\.wal$/;

const segmentName = (firstSeq: number): string => `${String(firstSeq).padStart(16, '0')}.wal`;

/**
 * The log as a component: `start` takes the directory (creates it, takes its lock), `recover` replays and
 * opens it for appends, `shutdown` is `close`.
 */
export class WriteAheadLog implements Component {
  readonly name = 'wal';
  private readonly tracker = new SettleTracker();
  /** The text of the checkpoint last saved (or read at recovery): an unchanged one is not written again. */
  private savedCheckpoint = '';
  private segments: Segment[] = [];
  private fd: number | undefined;
  private liveBytes = 0;
  private nextSeq = 0;
  private lowWatermark = 0;
  private lastAppended = -1;
  private syncedThrough = -1;
  private syncing = false;
  private waiters: Waiter[] = [];
  /** Descriptors of rotated segments, closed once the fdatasync running on them is done. */
  private closeAfterSync: number[] = [];
  private syncDone: (() => void)[] = [];
  private checkpointing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private closing: Promise<void> | undefined;
  private unlock: (() => void) | undefined;
  private unobserve: (() => void) | undefined;

  private readonly log: ComponentSettings['logger'];
  private readonly settings: ComponentSettings;

  constructor(
    readonly options: WalOptions,
    settings: ComponentSettings = componentSettings(),
  ) {
    this.settings = settings;
    this.log = settings.logger.child({ component: 'wal' });
  }

  /** Bytes held by the segment files. */
  get bytes(): number {
    return this.liveBytes;
  }

  /** The saved low watermark: every record below it has settled. */
  get watermark(): number {
    return this.lowWatermark;
  }

  /** Records appended or replayed and not yet settled. */
  get unsettled(): number {
    return this.tracker.inFlight();
  }

  /** Segment files on disk (oldest first). */
  get segmentFiles(): string[] {
    return this.segments.map((s) => s.path);
  }

  /**
   * Read the log and hand each record at or above the checkpoint to `onRecord` (in sequence order; the
   * record is tracked until `settle(record.seq)`), then open for appends. A torn tail of the last segment
   * is truncated away, damaged records elsewhere are skipped; both are logged with file and byte offset.
   */
  async recover(onRecord: (record: WalRecord) => Promise<void>): Promise<WalRecovery> {
    if (this.state !== 'new') throw new Error('recover() runs once, before the log is used');
    const dir = this.options.dir;
    await this.start();
    try {
      return await this.recoverLocked(dir, onRecord);
    } catch (err) {
      this.unlock?.();
      this.unlock = undefined;
      throw err;
    }
  }

  private async recoverLocked(dir: string, onRecord: (record: WalRecord) => Promise<void>): Promise<WalRecovery> {
    const checkpoint = readCheckpoint(dir);
    if (checkpoint.problem) this.log.warn({ dir, problem: checkpoint.problem }, 'write-ahead log checkpoint unusable; replaying every record in the log');
    this.lowWatermark = checkpoint.lowWatermark;
    let skippedSettled = 0;
    const found = readdirSync(dir)
      .flatMap((name) => {
        const m = SEGMENT_RE.exec(name);
        return m ? [{ firstSeq: Number(m[1]), path: join(dir, name), bytes: 0 }] : [];
      })
      .sort((a, b) => a.firstSeq - b.firstSeq);
    let maxSeq = -1;
    let replayed = 0;
    let skipped = 0;
    const problems: WalProblem[] = [];
    for (let i = 0; i < found.length; i++) {
      const segment = found[i] as Segment;
      const buf = readFileSync(segment.path);
      const scan = scanSegment(buf);
      segment.bytes = buf.length;
      for (const p of scan.skipped) {
        skipped++;
        problems.push({ file: segment.path, offset: p.offset, action: 'skipped', reason: p.reason });
        this.log.warn({ file: segment.path, offset: p.offset, bytes: p.bytes, reason: p.reason }, 'write-ahead log: damaged record skipped');
      }
      if (scan.tornTail) {
        const t = scan.tornTail;
        if (i === found.length - 1) {
          truncateSync(segment.path, t.offset);
          problems.push({ file: segment.path, offset: t.offset, action: 'truncated', reason: t.reason });
          segment.bytes = t.offset;
          this.log.warn({ file: segment.path, offset: t.offset, bytes: t.bytes, reason: t.reason }, 'write-ahead log: torn tail truncated (a crash during a write)');
        } else {
          skipped++;
          problems.push({ file: segment.path, offset: t.offset, action: 'skipped', reason: t.reason });
          this.log.warn({ file: segment.path, offset: t.offset, bytes: t.bytes, reason: t.reason }, 'write-ahead log: damaged end of a segment skipped');
        }
      }
      this.segments.push(segment);
      this.liveBytes += segment.bytes;
      for (const record of scan.records) {
        if (record.seq <= maxSeq) {
          this.log.warn({ file: segment.path, offset: record.offset, seq: record.seq }, 'write-ahead log: record out of sequence skipped');
          continue;
        }
        maxSeq = record.seq;
        if (!needsReplay(checkpoint, record.seq)) {
          if (record.seq >= this.lowWatermark) skippedSettled++;
          continue;
        }
        this.tracker.track(record.seq);
        replayed++;
        await onRecord(record);
      }
    }
    this.nextSeq = Math.max(checkpoint.next, this.lowWatermark, maxSeq + 1);
    this.lastAppended = this.syncedThrough = this.nextSeq - 1;
    this.openSegment();
    this.state = 'open';
    this.unobserve = this.settings.telemetry.observeWal(() => ({ bytes: this.bytes, unsettled: this.unsettled }));
    this.timer = setInterval(() => this.onTimer(), this.options.checkpointIntervalMs);
    this.timer.unref();
    if (replayed > 0 || skipped > 0) this.log.info({ dir, replayed, skipped, settledAboveWatermark: skippedSettled, lowWatermark: this.lowWatermark }, 'write-ahead log recovered');
    return { replayed, skipped, problems };
  }

  /**
   * Append one record synchronously and return its sequence number. Throws `WalFullError` at `maxBytes`,
   * `WalClosedError` when not open, or the I/O error (the segment is then cut back to its last whole record).
   */
  append(kind: WalRecordKind, payload: Uint8Array): number {
    if (this.state !== 'open' || this.fd === undefined) throw new WalClosedError();
    const size = HEADER_BYTES + payload.length;
    if (this.liveBytes + size > this.options.maxBytes) throw new WalFullError(Math.min(30_000, Math.max(1000, this.options.checkpointIntervalMs)));
    let active = this.segments[this.segments.length - 1] as Segment;
    if (active.bytes > 0 && active.bytes + size > this.options.segmentBytes) active = this.rotate();
    const seq = this.nextSeq;
    const header = encodeHeader(seq, kind, payload);
    let written = 0;
    try {
      // At an explicit position, so a write cut back after a failure leaves no hole behind.
      written = writevSync(this.fd, [header, payload], active.bytes);
      if (written !== size) throw new Error(`short write (${written} of ${size} bytes)`);
    } catch (err) {
      this.cutBack(active, written);
      throw err;
    }
    active.bytes += size;
    this.liveBytes += size;
    this.nextSeq++;
    this.lastAppended = seq;
    this.tracker.track(seq);
    return seq;
  }

  /** Resolves once record `seq` is durable per the fsync policy (at once for `interval` and `never`). */
  durable(seq: number): Promise<void> {
    if (this.options.fsync !== 'always' || seq <= this.syncedThrough) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.sync();
    });
  }

  /** The record's traces are all handled (or it was refused): it no longer holds the watermark back. */
  settle(seq: number): void {
    this.tracker.settle(seq);
  }

  /** Save the checkpoint if it changed, then delete segments wholly below the low watermark. Never rejects. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.saveCheckpoint().finally(() => (this.checkpointing = undefined));
    return this.checkpointing;
  }

  /** Create the directory and take its lock; throws naming `sources.otlp.wal.dir`. Idempotent. */
  start(): Promise<void> {
    if (this.unlock || this.state !== 'new') return Promise.resolve();
    const dir = this.options.dir;
    try {
      mkdirSync(dir, { recursive: true });
      this.unlock = lockDir(dir);
    } catch (err) {
      return Promise.reject(new Error(`sources.otlp.wal.dir: cannot use ${dir} for the write-ahead log: ${errorMessage(err)}`, { cause: err }));
    }
    return Promise.resolve();
  }

  /** The component shutdown: {@link close}. */
  shutdown(): Promise<void> {
    return this.close();
  }

  /** Stop the timers, sync and close the segment, write the final checkpoint, release the lock. Safe twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const wasOpen = this.state === 'open';
      this.state = 'closed';
      if (this.timer) clearInterval(this.timer);
      this.unobserve?.();
      this.unobserve = undefined;
      if (!wasOpen) {
        this.unlock?.();
        this.unlock = undefined;
        return;
      }
      try {
        await this.closeOpen();
      } finally {
        this.unlock?.();
        this.unlock = undefined;
      }
    })();
    return this.closing;
  }

  private async closeOpen(): Promise<void> {
    await this.checkpointing;
    if (this.syncing) await new Promise<void>((r) => this.syncDone.push(r));
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      try {
        if (this.options.fsync !== 'never') fdatasyncSync(fd);
        this.markSynced(this.lastAppended);
      } catch (err) {
        this.log.error({ err: errorMessage(err) }, 'write-ahead log: final sync failed');
      }
      closeSync(fd);
    }
    for (const w of this.waiters.splice(0)) w.reject(new WalClosedError());
    await this.saveCheckpoint(true);
    this.log.info({ dir: this.options.dir, lowWatermark: this.lowWatermark, unsettled: this.unsettled, segments: this.segments.length }, 'write-ahead log closed');
  }

  private openSegment(): Segment {
    const segment: Segment = { firstSeq: this.nextSeq, path: join(this.options.dir, segmentName(this.nextSeq)), bytes: 0 };
    // A file already named after the next sequence number holds no intact record (its records would be ≥ it).
    const existing = this.segments.findIndex((s) => s.path === segment.path);
    if (existing >= 0) {
      this.liveBytes -= (this.segments[existing] as Segment).bytes;
      this.segments.splice(existing, 1);
    }
    this.fd = openSync(segment.path, 'w');
    this.segments.push(segment);
    return segment;
  }

  /** Close the active segment (synced, unless fsync is `never`) and open the next. */
  private rotate(): Segment {
    const fd = this.fd as number;
    if (this.options.fsync !== 'never') {
      fdatasyncSync(fd);
      this.markSynced(this.lastAppended);
    }
    if (this.syncing) this.closeAfterSync.push(fd);
    else closeSync(fd);
    return this.openSegment();
  }

  /** After a failed write: cut the segment back to its last whole record, or move to a new segment. */
  private cutBack(active: Segment, written: number): void {
    if (written === 0 || this.fd === undefined) return;
    try {
      ftruncateSync(this.fd, active.bytes);
    } catch (err) {
      this.log.error({ file: active.path, offset: active.bytes, err: errorMessage(err) }, 'write-ahead log: cannot cut a partial record; starting a new segment');
      active.bytes += written;
      this.liveBytes += written;
      try {
        this.rotate();
      } catch (rotateErr) {
        this.log.error({ err: errorMessage(rotateErr) }, 'write-ahead log: cannot start a new segment');
      }
    }
  }

  /** Group commit: one fdatasync covers every record appended before it started. */
  private sync(): void {
    if (this.syncing || this.fd === undefined) return;
    const target = this.lastAppended;
    if (target <= this.syncedThrough) {
      this.markSynced(target);
      return;
    }
    this.syncing = true;
    fdatasync(this.fd, (err) => {
      this.syncing = false;
      for (const fd of this.closeAfterSync.splice(0)) closeSync(fd);
      if (err) {
        this.log.error({ err: errorMessage(err) }, 'write-ahead log: fdatasync failed');
        const failed = this.waiters.filter((w) => w.seq <= target);
        this.waiters = this.waiters.filter((w) => w.seq > target);
        for (const w of failed) w.reject(err);
      } else this.markSynced(target);
      for (const done of this.syncDone.splice(0)) done();
      if (this.waiters.length > 0 && this.state === 'open') this.sync();
    });
  }

  private markSynced(through: number): void {
    if (through > this.syncedThrough) this.syncedThrough = through;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => w.seq <= this.syncedThrough);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.seq > this.syncedThrough);
    for (const w of ready) w.resolve();
  }

  private onTimer(): void {
    if (this.options.fsync === 'interval') this.sync();
    void this.checkpoint();
  }

  private async saveCheckpoint(final = false): Promise<void> {
    try {
      // Taken at one instant: `next` and the unsettled ranges describe the same set of records.
      const next = this.nextSeq;
      const lowWatermark = this.tracker.lowWatermark(next);
      const text = checkpointText({ lowWatermark, next, unsettled: this.tracker.unsettledRanges() });
      if (text !== this.savedCheckpoint) {
        await writeCheckpoint(this.options.dir, text);
        this.savedCheckpoint = text;
        this.lowWatermark = lowWatermark;
      }
    } catch (err) {
      this.log.error({ dir: this.options.dir, err: errorMessage(err) }, 'write-ahead log: cannot save the checkpoint');
      return;
    }
    this.deleteSettledSegments(final);
  }

  /** A segment goes once every record in it is below the watermark (the active one only at close). */
  private deleteSettledSegments(final: boolean): void {
    const keep: Segment[] = [];
    for (let i = 0; i < this.segments.length; i++) {
      const s = this.segments[i] as Segment;
      const last = i === this.segments.length - 1;
      const end = last ? this.nextSeq : (this.segments[i + 1] as Segment).firstSeq;
      const removable = (!last || final) && end <= this.lowWatermark;
      if (!removable) {
        keep.push(s);
        continue;
      }
      try {
        unlinkSync(s.path);
        this.liveBytes -= s.bytes;
      } catch (err) {
        this.log.error({ file: s.path, err: errorMessage(err) }, 'write-ahead log: cannot delete a settled segment');
        keep.push(s);
      }
    }
    this.segments = keep;
  }
}
