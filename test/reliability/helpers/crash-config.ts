/** The `serve` config of the crash tests: OTLP/HTTP only, three code scorers, every run sampled, records to a JSON-lines file. */
export interface CrashConfigOptions {
  jsonl: string;
  decisionWaitMs: number;
  /** The write-ahead log (fsync always), when the test wants one. */
  wal?: { dir: string; checkpointIntervalMs: number };
}

export function crashConfig(o: CrashConfigOptions): string {
  const wal = o.wal ? `\n    wal: { enabled: true, dir: ${JSON.stringify(o.wal.dir)}, fsync: always, checkpointIntervalMs: ${o.wal.checkpointIntervalMs} }` : '';
  return `
sources:
  otlp:
    http: { port: 0 }
    grpc: { enabled: false }${wal}
assembly: { decisionWaitMs: ${o.decisionWaitMs}, tickMs: 50 }
scorers:
  similarity: { type: content-similarity }
  tone: { type: tone }
  keywords: { type: keyword-coverage }
sampling: { default: { rate: 1 } }
emit:
  stdout: { enabled: false }
  jsonl: { path: ${JSON.stringify(o.jsonl)} }
  prometheus: { port: 0 }
`;
}
