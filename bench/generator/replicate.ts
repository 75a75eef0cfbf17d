/**
 * Cheap copies of encoded requests with new trace ids, for scenarios that need more distinct traces than
 * generating them one by one allows (100,000 traces in the memory scenario). Replica `r` of a trace keeps
 * the first 12 bytes of its id and puts `r` (big-endian) in the last 4, so replicas never collide with
 * each other, and with other traces only if two generated ids share 96 bits.
 */

/** The trace id of replica `r` of `traceId` (32 hex chars). */
export function replicaTraceId(traceId: string, r: number): string {
  return `${traceId.slice(0, 24)}${(r >>> 0).toString(16).padStart(8, '0')}`;
}

/** A protobuf request body with every occurrence of each of `traceIds` replaced by its replica `r`. */
export function replicateProto(body: Uint8Array, traceIds: readonly string[], r: number): Buffer {
  const out = Buffer.from(body);
  for (const id of traceIds) {
    const needle = Buffer.from(id, 'hex');
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 16)) out.writeUInt32BE(r >>> 0, at + 12);
  }
  return out;
}

/** A JSON request body (compact, as encodeJson writes it) with every `"traceId":"…"` of `traceIds` replaced by replica `r`. */
export function replicateJson(body: Buffer, traceIds: readonly string[], r: number): Buffer {
  const wanted = new Set(traceIds);
  const text = body.toString('utf8').replace(/"traceId":"([0-9a-f]{32})"/g, (m, id: string) => (wanted.has(id) ? `"traceId":"${replicaTraceId(id, r)}"` : m));
  return Buffer.from(text);
}
