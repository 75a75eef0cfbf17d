/**
 * CRC-32 (IEEE 802.3, the zlib/gzip polynomial). Uses `zlib.crc32` where Node has it (≥ 20.15, ≥ 22.2) and
 * a table-driven implementation otherwise; both give the same value.
 */
import * as zlib from 'node:zlib';

// Lazily built immutable lookup table (256 entries), filled once on first use and never changed.
let table: Uint32Array | undefined;

function makeTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

/** The portable implementation (exported for the test that checks it against zlib). */
export function crc32Portable(data: Uint8Array): number {
  const t = (table ??= makeTable());
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** CRC-32 of `data`, as an unsigned 32-bit integer. */
export const crc32: (data: Uint8Array) => number = typeof native === 'function' ? (d) => native(d) >>> 0 : crc32Portable;
