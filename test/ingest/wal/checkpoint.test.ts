/**
 * The checkpoint keeps replay bounded under sustained load (issue #16, B): it lists the records still
 * unsettled, so a record held back for long (a trace waiting for its root, a slow judge) no longer makes
 * every record settled after it replay after a crash: only those that settled since the last checkpoint.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointText, needsReplay, readCheckpoint } from '../../../src/ingest/wal/checkpoint.js';
import { WriteAheadLog, type WalOptions } from '../../../src/ingest/wal/log.js';
import { SettleTracker } from '../../../src/ingest/wal/settle-tracker.js';

const dirOf = (): string => mkdtempSync(join(tmpdir(), 'tracejudge-walcp-'));
const opts = (dir: string): WalOptions => ({ dir, fsync: 'never', segmentBytes: 1 << 20, maxBytes: 8 << 20, checkpointIntervalMs: 60_000 });

async function reopen(dir: string): Promise<{ wal: WriteAheadLog; replayed: number[] }> {
  const wal = new WriteAheadLog(opts(dir));
  const replayed: number[] = [];
  await wal.recover((r) => {
    replayed.push(r.seq);
    return Promise.resolve();
  });
  return { wal, replayed };
}

describe('SettleTracker', () => {
  it('keeps the oldest unsettled record as the low watermark and lists the unsettled ones as ranges', () => {
    const t = new SettleTracker();
    for (let i = 0; i < 10; i++) t.track(i);
    for (const s of [1, 2, 3, 5, 8, 9]) t.settle(s);
    expect(t.lowWatermark(10)).toBe(0);
    expect(t.unsettledRanges()).toEqual([[0, 0], [4, 4], [6, 7]]);
    expect(t.inFlight()).toBe(4);
    t.settle(0);
    expect(t.lowWatermark(10)).toBe(4);
    t.settle(4);
    t.settle(6);
    t.settle(7);
    t.settle(7);
    t.settle(42);
    expect(t.lowWatermark(10)).toBe(10);
    expect(t.unsettledRanges()).toEqual([]);
    expect(t.inFlight()).toBe(0);
    expect(() => t.track(3)).not.toThrow(); // nothing pending: a fresh start
    t.track(11);
    expect(() => t.track(5)).toThrow(/out of order/);
  });

  it('merges ranges past the cap conservatively (more replay, never a loss)', () => {
    const t = new SettleTracker();
    for (let i = 0; i < 20; i++) t.track(i);
    for (let i = 1; i < 20; i += 2) t.settle(i);
    expect(t.unsettledRanges(3)).toEqual([[0, 0], [2, 2], [4, 18]]);
  });
});

describe('checkpoint file', () => {
  it('writes version 2 and reads versions 1 and 2; a malformed one replays everything', () => {
    const dir = dirOf();
    writeFileSync(join(dir, 'checkpoint.json'), checkpointText({ lowWatermark: 3, next: 10, unsettled: [[3, 4], [7, 7]] }));
    const v2 = readCheckpoint(dir);
    expect(v2).toEqual({ lowWatermark: 3, next: 10, unsettled: [[3, 4], [7, 7]] });
    expect([2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((s) => needsReplay(v2, s))).toEqual([false, true, true, false, false, true, false, false, true, true]);
    writeFileSync(join(dir, 'checkpoint.json'), `${JSON.stringify({ version: 1, lowWatermark: 5 })}\n`);
    const v1 = readCheckpoint(dir);
    expect([4, 5, 6].map((s) => needsReplay(v1, s))).toEqual([false, true, true]);
    writeFileSync(join(dir, 'checkpoint.json'), `${JSON.stringify({ version: 2, lowWatermark: 3, next: 10, unsettled: [[7, 7], [3, 4]] })}\n`);
    expect(readCheckpoint(dir)).toMatchObject({ lowWatermark: 0, next: 0, problem: 'not a valid checkpoint' });
  });
});

describe('WriteAheadLog replay with one record held back', () => {
  it('replays only the unsettled records, not every record settled after the oldest unsettled one', async () => {
    const dir = dirOf();
    const first = await reopen(dir);
    for (let i = 0; i < 100; i++) first.wal.append('traces-protobuf', Buffer.from(`record ${i}`));
    // Record 3 is held back (a trace without its root); everything else settles while more records arrive.
    for (let i = 0; i < 90; i++) if (i !== 3) first.wal.settle(i);
    await first.wal.checkpoint();
    const saved = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')) as { lowWatermark: number; next: number; unsettled: number[][] };
    expect(saved).toEqual({ version: 2, lowWatermark: 3, next: 100, unsettled: [[3, 3], [90, 99]] });
    for (let i = 90; i < 95; i++) first.wal.settle(i);
    // A crash now: the directory as it is (no final checkpoint), opened by the next process.
    const crashed = dirOf();
    cpSync(dir, crashed, { recursive: true });
    rmSync(join(crashed, 'lock'), { force: true });
    await first.wal.close();
    // What settled after the checkpoint (90-94) is replayed again: nothing settled before it, however old record 3 is.
    const second = await reopen(crashed);
    expect(second.replayed).toEqual([3, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    for (const s of second.replayed) second.wal.settle(s);
    await second.wal.close();
    const third = await reopen(crashed);
    expect(third.replayed).toEqual([]);
    expect(third.wal.watermark).toBe(100);
    await third.wal.close();
  });
});
