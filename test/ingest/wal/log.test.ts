import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Portable } from '../../../src/ingest/wal/crc32.js';
import { WalFullError, WriteAheadLog, type WalOptions } from '../../../src/ingest/wal/log.js';
import { HEADER_BYTES, type WalRecord } from '../../../src/ingest/wal/record.js';

const dirOf = (): string => mkdtempSync(join(tmpdir(), 'tracejudge-wal-'));
const opts = (dir: string, over: Partial<WalOptions> = {}): WalOptions => ({ dir, fsync: 'always', segmentBytes: 1 << 20, maxBytes: 8 << 20, checkpointIntervalMs: 60_000, ...over });
const payload = (i: number, size = 100): Buffer => Buffer.alloc(size, `record-${i}|`);

/** Opens a log on `dir`, collecting what recovery hands back. */
async function openLog(options: WalOptions): Promise<{ wal: WriteAheadLog; records: WalRecord[]; recovery: Awaited<ReturnType<WriteAheadLog['recover']>> }> {
  const wal = new WriteAheadLog(options);
  const records: WalRecord[] = [];
  const recovery = await wal.recover((r) => {
    records.push({ ...r, payload: Buffer.from(r.payload) });
    return Promise.resolve();
  });
  return { wal, records, recovery };
}

const segments = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.wal')).sort();
const checkpointOf = (dir: string): number => (JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')) as { lowWatermark: number }).lowWatermark;

describe('crc32', () => {
  it('the portable implementation matches zlib and the standard check value', () => {
    expect(crc32Portable(Buffer.from('123456789'))).toBe(0xcbf43926);
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff));
    expect(crc32Portable(data)).toBe(crc32(data));
    const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
    if (native) expect(crc32Portable(data)).toBe(native(data) >>> 0);
  });
});

describe('WriteAheadLog', () => {
  it('round trip: records appended and not settled come back in order, with kinds, payloads and sequence numbers', async () => {
    const dir = dirOf();
    const { wal } = await openLog(opts(dir));
    const kinds = ['traces-protobuf', 'traces-json', 'logs-protobuf', 'logs-json'] as const;
    const seqs = kinds.map((k, i) => wal.append(k, payload(i, 50 + i)));
    expect(seqs).toEqual([0, 1, 2, 3]);
    await Promise.all(seqs.map((s) => wal.durable(s)));
    await wal.close();

    const again = await openLog(opts(dir));
    expect(again.records.map((r) => [r.seq, r.kind, r.payload.toString()])).toEqual(kinds.map((k, i) => [i, k, payload(i, 50 + i).toString()]));
    expect(again.recovery.problems).toEqual([]);
    // New records continue the sequence.
    expect(again.wal.append('traces-json', payload(9))).toBe(4);
    await again.wal.close();
  });

  it('a torn tail (truncated record, or a CRC mismatch at the end) is truncated away and named by file and offset', async () => {
    for (const damage of ['truncate', 'flip-last-byte'] as const) {
      const dir = dirOf();
      const { wal } = await openLog(opts(dir));
      for (let i = 0; i < 3; i++) wal.append('traces-protobuf', payload(i));
      await wal.close();
      const file = join(dir, segments(dir)[0] as string);
      const bytes = readFileSync(file);
      const thirdAt = 2 * (HEADER_BYTES + 100);
      if (damage === 'truncate') writeFileSync(file, bytes.subarray(0, bytes.length - 7));
      else {
        bytes.writeUInt8((bytes.at(-1) as number) ^ 0xff, bytes.length - 1);
        writeFileSync(file, bytes);
      }
      const again = await openLog(opts(dir));
      expect(again.records.map((r) => r.seq)).toEqual([0, 1]);
      expect(again.recovery.problems).toEqual([expect.objectContaining({ file, offset: thirdAt, action: 'truncated' })]);
      expect(statSync(file).size).toBe(thirdAt);
      await again.wal.close();
      // The truncation sticks: a third start finds nothing wrong.
      const third = await openLog(opts(dir));
      expect(third.recovery.problems).toEqual([]);
      expect(third.records.map((r) => r.seq)).toEqual([0, 1]);
      await third.wal.close();
    }
  });

  it('a damaged record in the middle (payload or header) is skipped with file and offset; the ones after it survive', async () => {
    for (const where of ['payload', 'header'] as const) {
      const dir = dirOf();
      const { wal } = await openLog(opts(dir));
      for (let i = 0; i < 4; i++) wal.append('traces-json', payload(i));
      await wal.close();
      const file = join(dir, segments(dir)[0] as string);
      const bytes = readFileSync(file);
      const secondAt = HEADER_BYTES + 100;
      const at = secondAt + (where === 'payload' ? HEADER_BYTES + 10 : 17);
      bytes.writeUInt8((bytes[at] as number) ^ 0x55, at);
      writeFileSync(file, bytes);
      const again = await openLog(opts(dir));
      expect(again.records.map((r) => r.seq)).toEqual([0, 2, 3]);
      expect(again.recovery.problems).toEqual([expect.objectContaining({ file, offset: secondAt, action: 'skipped' })]);
      expect(statSync(file).size).toBe(bytes.length);
      await again.wal.close();
    }
  });

  it('garbage everywhere never crashes or loops', async () => {
    const dir = dirOf();
    let x = 12345;
    const junk = Buffer.alloc(20_000);
    for (let i = 0; i < junk.length; i++) junk[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    junk.write('TJWL', 500, 'latin1');
    writeFileSync(join(dir, '0000000000000000.wal'), junk);
    const again = await openLog(opts(dir));
    expect(again.records).toEqual([]);
    expect(again.recovery.problems).toEqual([expect.objectContaining({ offset: 0, action: 'truncated' })]);
    await again.wal.close();
  });

  it('the checkpoint advances only past settled records, settled in any order', async () => {
    const dir = dirOf();
    const { wal } = await openLog(opts(dir));
    for (let i = 0; i < 5; i++) wal.append('traces-protobuf', payload(i));
    wal.settle(1);
    wal.settle(2);
    await wal.checkpoint();
    expect(checkpointOf(dir)).toBe(0);
    wal.settle(0);
    await wal.checkpoint();
    expect(checkpointOf(dir)).toBe(3);
    wal.settle(4);
    await wal.checkpoint();
    expect(checkpointOf(dir)).toBe(3);
    await wal.close();

    // Restart: record 3 (unsettled) comes back; 0-2 (below the watermark) and 4 (settled above it, listed so in the checkpoint) do not.
    const again = await openLog(opts(dir));
    expect(again.records.map((r) => r.seq)).toEqual([3]);
    again.wal.settle(3);
    again.wal.settle(4);
    await again.wal.close();
    expect(checkpointOf(dir)).toBe(5);
    expect(segments(dir)).toEqual([]);
    const third = await openLog(opts(dir));
    expect(third.records).toEqual([]);
    expect(third.wal.append('logs-json', payload(5))).toBe(5);
    await third.wal.close();
  });

  it('deletes segments wholly below the watermark, never one that holds an unsettled record', async () => {
    const dir = dirOf();
    const record = HEADER_BYTES + 300;
    const { wal } = await openLog(opts(dir, { segmentBytes: 3 * record, maxBytes: 100 * record }));
    for (let i = 0; i < 10; i++) wal.append('traces-protobuf', payload(i, 300));
    expect(segments(dir)).toHaveLength(4); // 0-2, 3-5, 6-8, 9
    expect(wal.bytes).toBe(10 * record);
    for (let i = 0; i < 10; i++) if (i !== 7) wal.settle(i);
    await wal.checkpoint();
    expect(checkpointOf(dir)).toBe(7);
    expect(segments(dir)).toEqual(['0000000000000006.wal', '0000000000000009.wal']);
    expect(wal.bytes).toBe(4 * record);
    wal.settle(7);
    await wal.checkpoint();
    // The active segment stays while the log is open.
    expect(segments(dir)).toEqual(['0000000000000009.wal']);
    await wal.close();
    expect(segments(dir)).toEqual([]);
  });

  it('refuses appends past maxBytes (back-pressure) and takes them again once settled segments are deleted', async () => {
    const dir = dirOf();
    const record = HEADER_BYTES + 200;
    const { wal } = await openLog(opts(dir, { segmentBytes: 2 * record, maxBytes: 5 * record }));
    for (let i = 0; i < 5; i++) wal.append('traces-json', payload(i, 200));
    expect(() => wal.append('traces-json', payload(5, 200))).toThrow(WalFullError);
    for (let i = 0; i < 5; i++) wal.settle(i);
    await wal.checkpoint();
    expect(wal.append('traces-json', payload(5, 200))).toBe(5);
    await wal.close();
  });

  it('fsync always: concurrent appends become durable (group commit); interval and never answer at once', async () => {
    const dir = dirOf();
    const { wal } = await openLog(opts(dir));
    const seqs = Array.from({ length: 50 }, (_, i) => wal.append('traces-protobuf', payload(i)));
    await Promise.all(seqs.map((s) => wal.durable(s)));
    await wal.close();
    for (const fsync of ['interval', 'never'] as const) {
      const d = dirOf();
      const { wal: w } = await openLog(opts(d, { fsync, checkpointIntervalMs: 20 }));
      const s = w.append('traces-json', payload(1));
      await w.durable(s);
      w.settle(s);
      await new Promise((r) => setTimeout(r, 100));
      expect(checkpointOf(d)).toBe(1);
      await w.close();
    }
  });

  it('refuses appends once closed', async () => {
    const dir = dirOf();
    const { wal } = await openLog(opts(dir));
    await wal.close();
    await wal.close();
    expect(() => wal.append('traces-json', payload(0))).toThrow(/not open/);
  });
});

describe('WriteAheadLog under concurrent appends', () => {
  it('rotates segments while a group fdatasync is running, and every record is durable and recovered', async () => {
    const dir = dirOf();
    const record = HEADER_BYTES + 500;
    const { wal } = await openLog(opts(dir, { segmentBytes: 4 * record, maxBytes: 1000 * record }));
    const waits: Promise<void>[] = [];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 5; i++) {
        const seq = wal.append('traces-protobuf', payload(round * 5 + i, 500));
        waits.push(wal.durable(seq));
      }
      // Let the group commit start before the next appends (which rotate under it).
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(waits);
    expect(segments(dir).length).toBeGreaterThanOrEqual(25);
    await wal.close();
    const again = await openLog(opts(dir, { segmentBytes: 4 * record, maxBytes: 1000 * record }));
    expect(again.records.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(again.records.every((r, i) => r.payload.equals(payload(i, 500)))).toBe(true);
    expect(again.recovery.problems).toEqual([]);
    await again.wal.close();
  });
});

describe('WriteAheadLog directory lock', () => {
  it('a directory that cannot be created is an error naming the config key and the path', async () => {
    const file = join(dirOf(), 'a-file');
    writeFileSync(file, 'not a directory');
    await expect(openLog(opts(join(file, 'wal')))).rejects.toThrow(/^sources\.otlp\.wal\.dir: cannot use .*a-file\/wal for the write-ahead log: ENOTDIR/);
  });

  it('refuses a second log on the same directory while the first is open, and allows it after close', async () => {
    const dir = dirOf();
    const { wal } = await openLog(opts(dir));
    await expect(openLog(opts(dir))).rejects.toThrow(new RegExp(`^sources\\.otlp\\.wal\\.dir: .*in use by process ${process.pid}`));
    await wal.close();
    const again = await openLog(opts(dir));
    await again.wal.close();
  });

  it('takes over a lock left by a process that no longer runs (a crash), or by a dead process with our pid (a container restart)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    for (const pid of [dead, process.pid]) {
      const dir = dirOf();
      writeFileSync(join(dir, 'lock'), `${pid}\n`);
      const { wal } = await openLog(opts(dir));
      // The lock names its owner by pid and process start time (a dead process with our pid had another start time).
      expect(readFileSync(join(dir, 'lock'), 'utf8').trim()).toBe(`${process.pid} ${performance.timeOrigin.toFixed(3)}`);
      await wal.close();
    }
  });
});
