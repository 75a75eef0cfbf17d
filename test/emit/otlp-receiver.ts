/**
 * A small collector-shaped OTLP receiver for tests: OTLP/HTTP (`/v1/traces`, `/v1/logs`, protobuf or JSON) and
 * OTLP/gRPC (TraceService/Export, LogsService/Export) on 127.0.0.1 with ephemeral ports. Payloads are decoded
 * with protobufjs from the committed official OTLP descriptor, and normalised to hex ids and typed values.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import descriptorJson from '../../src/otlp/proto/otlp.json' with { type: 'json' };

const root = protobuf.Root.fromJSON(descriptorJson as protobuf.INamespace);
const TraceRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const LogsRequest = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
const TraceResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const LogsResponse = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse');

export interface TypedValue {
  type: 'string' | 'double' | 'int' | 'bool' | 'other';
  value: unknown;
}
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, TypedValue>;
  links: { traceId: string; spanId: string }[];
  events: { name: string; timeUnixNano: string; attributes: Record<string, TypedValue> }[];
  statusCode: number;
  serviceName: string | undefined;
  /** The attributes of the span's resource. */
  resource: Record<string, TypedValue>;
}
export interface ReceivedLog {
  traceId: string;
  spanId: string;
  eventName: string;
  timeUnixNano: string;
  attributes: Record<string, TypedValue>;
  /** The attributes of the log record's resource. */
  resource: Record<string, TypedValue>;
}
export interface Received {
  transport: 'http/protobuf' | 'http/json' | 'grpc';
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : '');

function hexId(v: unknown, fromJson: boolean): string {
  if (typeof v !== 'string' || v === '') return '';
  return fromJson ? v.toLowerCase() : Buffer.from(v, 'base64').toString('hex');
}

function typed(anyValue: unknown): TypedValue {
  const v = (anyValue ?? {}) as Obj;
  if ('stringValue' in v) return { type: 'string', value: v.stringValue };
  if ('doubleValue' in v) return { type: 'double', value: Number(v.doubleValue) };
  if ('intValue' in v) return { type: 'int', value: Number(v.intValue) };
  if ('boolValue' in v) return { type: 'bool', value: v.boolValue };
  return { type: 'other', value: v };
}

function attributes(list: unknown): Record<string, TypedValue> {
  const out: Record<string, TypedValue> = {};
  for (const kv of arr(list)) out[str(kv.key)] = typed(kv.value);
  return out;
}

function spansOf(req: Obj, fromJson: boolean): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of arr(req.resourceSpans)) {
    const resource = attributes((rs.resource as Obj | undefined)?.attributes);
    const serviceName = resource['service.name']?.value as string | undefined;
    for (const ss of arr(rs.scopeSpans)) {
      for (const s of arr(ss.spans)) {
        out.push({
          traceId: hexId(s.traceId, fromJson),
          spanId: hexId(s.spanId, fromJson),
          parentSpanId: hexId(s.parentSpanId, fromJson),
          name: str(s.name),
          kind: Number(s.kind ?? 0),
          startTimeUnixNano: str(s.startTimeUnixNano),
          endTimeUnixNano: str(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          links: arr(s.links).map((l) => ({ traceId: hexId(l.traceId, fromJson), spanId: hexId(l.spanId, fromJson) })),
          events: arr(s.events).map((e) => ({ name: str(e.name), timeUnixNano: str(e.timeUnixNano), attributes: attributes(e.attributes) })),
          statusCode: Number((s.status as Obj | undefined)?.code ?? 0),
          serviceName,
          resource,
        });
      }
    }
  }
  return out;
}

function logsOf(req: Obj, fromJson: boolean): ReceivedLog[] {
  const out: ReceivedLog[] = [];
  for (const rl of arr(req.resourceLogs)) {
    const resource = attributes((rl.resource as Obj | undefined)?.attributes);
    for (const sl of arr(rl.scopeLogs)) {
      for (const l of arr(sl.logRecords)) {
        out.push({
          traceId: hexId(l.traceId, fromJson),
          spanId: hexId(l.spanId, fromJson),
          eventName: str(l.eventName),
          timeUnixNano: str(l.timeUnixNano),
          attributes: attributes(l.attributes),
          resource,
        });
      }
    }
  }
  return out;
}

const toObjectOptions: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: String, defaults: false };

function decodeProto(type: protobuf.Type, body: Buffer): Obj {
  return type.toObject(type.decode(body), toObjectOptions);
}

/** A running receiver; `spans`/`logs` accumulate with the transport they came over. */
export class OtlpReceiver {
  readonly spans: (ReceivedSpan & Received)[] = [];
  readonly logs: (ReceivedLog & Received)[] = [];
  readonly contentTypes: string[] = [];
  /** The resource attributes of each ResourceMetrics received on `/v1/metrics` (OTLP/JSON only). */
  readonly metricResources: Record<string, TypedValue>[] = [];
  /** When set, HTTP requests are answered with this status (to test failure handling). */
  failWith: number | undefined;
  private http: Server | undefined;
  private grpcServer: grpc.Server | undefined;
  httpUrl = '';
  grpcUrl = '';

  async start(): Promise<void> {
    this.http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const type = str(req.headers['content-type']);
        this.contentTypes.push(type);
        if (this.failWith) {
          res.writeHead(this.failWith, { 'content-type': 'text/plain' }).end('refused by test');
          return;
        }
        const json = type.includes('json');
        try {
          if (req.url === '/v1/traces') {
            const obj = json ? (JSON.parse(body.toString('utf8')) as Obj) : decodeProto(TraceRequest, body);
            for (const s of spansOf(obj, json)) this.spans.push({ ...s, transport: json ? 'http/json' : 'http/protobuf' });
            res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
            res.end(json ? '{}' : Buffer.from(TraceResponse.encode(TraceResponse.create({})).finish()));
          } else if (req.url === '/v1/logs') {
            const obj = json ? (JSON.parse(body.toString('utf8')) as Obj) : decodeProto(LogsRequest, body);
            for (const l of logsOf(obj, json)) this.logs.push({ ...l, transport: json ? 'http/json' : 'http/protobuf' });
            res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
            res.end(json ? '{}' : Buffer.from(LogsResponse.encode(LogsResponse.create({})).finish()));
          } else if (req.url === '/v1/metrics' && json) {
            const obj = JSON.parse(body.toString('utf8')) as Obj;
            for (const rm of arr(obj.resourceMetrics)) this.metricResources.push(attributes((rm.resource as Obj | undefined)?.attributes));
            res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          } else {
            res.writeHead(404).end();
          }
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
      });
    });
    await new Promise<void>((resolve) => this.http?.listen(0, '127.0.0.1', resolve));
    this.httpUrl = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;

    const raw = <T>(path: string): grpc.MethodDefinition<Buffer, Buffer> & { path: string; _t?: T } => ({
      path,
      requestStream: false,
      responseStream: false,
      requestSerialize: (b: Buffer) => b,
      requestDeserialize: (b: Buffer) => b,
      responseSerialize: (b: Buffer) => b,
      responseDeserialize: (b: Buffer) => b,
    });
    const server = new grpc.Server();
    server.addService(
      { Export: raw('/opentelemetry.proto.collector.trace.v1.TraceService/Export') },
      {
        Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
          for (const s of spansOf(decodeProto(TraceRequest, call.request), false)) this.spans.push({ ...s, transport: 'grpc' });
          cb(null, Buffer.from(TraceResponse.encode(TraceResponse.create({})).finish()));
        },
      },
    );
    server.addService(
      { Export: raw('/opentelemetry.proto.collector.logs.v1.LogsService/Export') },
      {
        Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
          for (const l of logsOf(decodeProto(LogsRequest, call.request), false)) this.logs.push({ ...l, transport: 'grpc' });
          cb(null, Buffer.from(LogsResponse.encode(LogsResponse.create({})).finish()));
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    this.grpcServer = server;
    this.grpcUrl = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const http = this.http;
    if (http) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
    this.grpcServer?.forceShutdown();
  }
}
