/**
 * The on-disk record format of the write-ahead log, and the scan that reads a segment back.
 *
 * A record is a 28-byte header followed by the request body (after decompression, exactly as the decoder
 * accepted it). Header, big-endian: magic "TJWL" (4) · version (1) · kind (1) · reserved (2) · sequence
 * number (8) · payload length (4) · CRC-32 of the payload (4) · CRC-32 of the 24 bytes before it (4).
 * The header CRC makes the length trustworthy, so a record whose payload is damaged can be skipped by its
 * length, and a damaged header can be resynchronised on by looking for the next header that checks out.
 */
import { crc32 } from './crc32.js';

/** What a record holds: which OTLP signal, in which encoding. */
export type WalRecordKind = 'traces-protobuf' | 'traces-json' | 'logs-protobuf' | 'logs-json';

const KIND_CODES: Record<WalRecordKind, number> = { 'traces-protobuf': 1, 'traces-json': 2, 'logs-protobuf': 3, 'logs-json': 4 };
const KINDS_BY_CODE: ReadonlyMap<number, WalRecordKind> = new Map(Object.entries(KIND_CODES).map(([k, v]) => [v, k as WalRecordKind]));

export const HEADER_BYTES = 28;
const MAGIC = Buffer.from('TJWL', 'latin1');
const VERSION = 1;

export interface WalRecord {
  seq: number;
  kind: WalRecordKind;
  payload: Buffer;
  /** Byte offset of the record's header in its segment. */
  offset: number;
}

/** The header of a record; write it, then the payload. */
export function encodeHeader(seq: number, kind: WalRecordKind, payload: Uint8Array): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(h, 0);
  h[4] = VERSION;
  h[5] = KIND_CODES[kind];
  h.writeBigUInt64BE(BigInt(seq), 8);
  h.writeUInt32BE(payload.length, 16);
  h.writeUInt32BE(crc32(payload), 20);
  h.writeUInt32BE(crc32(h.subarray(0, 24)), 24);
  return h;
}

interface Header {
  seq: number;
  kind: WalRecordKind;
  length: number;
  payloadCrc: number;
}

/** The header at `at`, or undefined when the bytes there are not a valid header. */
function readHeader(buf: Buffer, at: number): Header | undefined {
  if (buf.length - at < HEADER_BYTES) return undefined;
  if (buf.compare(MAGIC, 0, 4, at, at + 4) !== 0 || buf[at + 4] !== VERSION) return undefined;
  if (crc32(buf.subarray(at, at + 24)) !== buf.readUInt32BE(at + 24)) return undefined;
  const kind = KINDS_BY_CODE.get(buf[at + 5] as number);
  if (kind === undefined) return undefined;
  const seq = buf.readBigUInt64BE(at + 8);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { seq: Number(seq), kind, length: buf.readUInt32BE(at + 16), payloadCrc: buf.readUInt32BE(at + 20) };
}

/** The offset of the next valid header at or after `from`, or -1. */
function nextHeader(buf: Buffer, from: number): number {
  for (let at = buf.indexOf(MAGIC, from); at >= 0; at = buf.indexOf(MAGIC, at + 1)) {
    if (readHeader(buf, at)) return at;
  }
  return -1;
}

/** A damaged stretch of a segment, skipped by the scan. */
export interface ScanProblem {
  offset: number;
  /** Bytes skipped from `offset`. */
  bytes: number;
  reason: string;
}

export interface SegmentScan {
  records: WalRecord[];
  /** Damaged records in the middle of the segment, skipped. */
  skipped: ScanProblem[];
  /** A damaged or incomplete end of the segment (a crash mid-write): everything from `offset` on is unusable. */
  tornTail?: ScanProblem;
}

/** Reads every intact record of a segment; never throws on damaged bytes, and always advances. */
export function scanSegment(buf: Buffer): SegmentScan {
  const records: WalRecord[] = [];
  const skipped: ScanProblem[] = [];
  let at = 0;
  while (at < buf.length) {
    const header = readHeader(buf, at);
    if (!header) {
      const next = nextHeader(buf, at + 1);
      const reason = buf.length - at < HEADER_BYTES ? 'truncated header' : 'invalid header (magic, version or header CRC)';
      if (next < 0) return { records, skipped, tornTail: { offset: at, bytes: buf.length - at, reason } };
      skipped.push({ offset: at, bytes: next - at, reason });
      at = next;
      continue;
    }
    const end = at + HEADER_BYTES + header.length;
    if (end > buf.length) {
      return { records, skipped, tornTail: { offset: at, bytes: buf.length - at, reason: `truncated payload (${buf.length - at - HEADER_BYTES} of ${header.length} bytes)` } };
    }
    const payload = buf.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== header.payloadCrc) {
      const problem = { offset: at, bytes: end - at, reason: 'payload CRC mismatch' };
      if (end === buf.length) return { records, skipped, tornTail: problem };
      skipped.push(problem);
      at = end;
      continue;
    }
    records.push({ seq: header.seq, kind: header.kind, payload, offset: at });
    at = end;
  }
  return { records, skipped };
}
