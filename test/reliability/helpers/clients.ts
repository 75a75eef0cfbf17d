/**
 * Clients for the receivers under test: OTLP/HTTP posts with any body and headers, and a raw OTLP/gRPC
 * client that sends arbitrary bytes as an ExportTraceServiceRequest (so malformed messages reach the server).
 */
import * as grpc from '@grpc/grpc-js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** POST `body` to `url`; never rejects for HTTP statuses (only for network failures). */
export async function post(url: string, body: Uint8Array | string, contentType: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

export interface GrpcAnswer {
  code: grpc.status;
  details: string;
  response?: Buffer;
  metadata?: grpc.Metadata;
}

const identity = (b: Buffer): Buffer => b;
const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

/** A raw TraceService client; `compress` turns on gzip message compression. */
export class RawGrpcClient {
  private readonly client: grpc.Client;

  constructor(port: number, options: { compress?: boolean } = {}) {
    this.client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_send_message_length': -1,
      'grpc.max_receive_message_length': 8 * 1024 * 1024,
      ...(options.compress ? { 'grpc.default_compression_algorithm': 2 } : {}),
    });
  }

  /** One Export call with raw request bytes. */
  export(body: Uint8Array, token?: string, timeoutMs = 15_000): Promise<GrpcAnswer> {
    const metadata = new grpc.Metadata();
    if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
    return new Promise((resolve) => {
      let trailers: grpc.Metadata | undefined;
      const call = this.client.makeUnaryRequest<Buffer, Buffer>(EXPORT, identity, identity, Buffer.from(body), metadata, { deadline: Date.now() + timeoutMs }, (err, response) => {
        if (err) resolve({ code: err.code, details: err.details, ...(trailers ? { metadata: trailers } : err.metadata ? { metadata: err.metadata } : {}) });
        else resolve({ code: grpc.status.OK, details: '', ...(response ? { response } : {}) });
      });
      call.on('status', (s: grpc.StatusObject) => {
        trailers = s.metadata;
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
