/**
 * An OTLP/HTTP capture server on 127.0.0.1 that can be taken down and brought back on the same port (a
 * Collector restart): down, connections are refused. It decodes `/v1/traces` (protobuf) with the project's
 * decoder and counts each carrier span by its id: one evaluation record = one (trace id, span id) pair.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../../src/ingest/otlp/decode.js';

export class CaptureOtlp {
  /** Carrier spans received, by `traceId/spanId`: the count is how often each record arrived. */
  readonly records = new Map<string, number>();
  /** Trace ids of the judged traces that have at least one record. */
  readonly traces = new Set<string>();
  requests = 0;
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Received spans in all, duplicates included. */
  get spans(): number {
    let n = 0;
    for (const c of this.records.values()) n += c;
    return n;
  }

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests++;
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        if (req.url !== '/v1/traces') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        const json = String(req.headers['content-type']).includes('json');
        const decoded = json ? decodeTraceRequestJson(body) : decodeTraceRequestProto(body);
        for (const s of decoded.spans) {
          const key = `${s.traceId}/${s.spanId}`;
          this.records.set(key, (this.records.get(key) ?? 0) + 1);
          this.traces.add(s.traceId);
        }
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : Buffer.alloc(0));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops open connections: the next export gets a refused connection. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
