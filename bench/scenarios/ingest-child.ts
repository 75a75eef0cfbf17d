/**
 * Child process of the ingest scenario: the service under test alone. The OTLP/HTTP receiver and the
 * assembler as `serve` builds them, with a handler that only counts, so the peak RSS it reports is the
 * service's own: the client, its pre-built request bodies and the raw-decode rounds stay in the parent.
 *
 * Protocol (IPC, `fork`): the child sends `{ type: 'ready', port }`; the parent posts its bodies, then sends
 * `{ type: 'flush' }`; the child flushes the assembler and answers with an `IngestChildResult`, then exits.
 *
 *     fork('bench/scenarios/ingest-child.ts', [], { execArgv: ['--import', 'tsx'] })
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchConfig, benchService } from '../lib/bench-service.js';
import { mib, PeakRss } from '../lib/stats.js';

export interface IngestChildResult {
  type: 'done';
  assembled: number;
  /** [trace id, epoch ms when assembled] for every assembled trace. */
  assembledAt: [string, number][];
  /** The highest RSS sampled every 20 ms after the service started (bytes). */
  peakRss: number;
  /** VmHWM of the child (the kernel's RSS high-water mark, start-up included), bytes; 0 off Linux. */
  hwm: number;
  /** RSS at the start and the heap / external breakdown at the peak sample, for the log. */
  memory: string;
}

const now = (): number => performance.timeOrigin + performance.now();

function vmHwm(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const assembledAt: [string, number][] = [];
const config = benchConfig([], '/dev/null', {
  sources: { otlp: { http: { host: '127.0.0.1', port: 0, maxBodyBytes: 64 * 1024 * 1024 }, grpc: { enabled: false } } },
  assembly: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 10_000_000, maxQueuedTraces: 10_000_000, maxBufferedBytes: 2 ** 45 },
});
const service = await benchService(config, {
  source: { kind: 'configured' },
  handleTrace: (trace) => {
    assembledAt.push([trace.traceId, now()]);
    return Promise.resolve();
  },
});
await service.start();
const rss = new PeakRss();
// Bounded: a parent that never answers does not leave this process behind.
const deadline = setTimeout(() => process.exit(3), 600_000);
deadline.unref();
process.on('disconnect', () => process.exit(4));
process.on('message', (m: { type?: string }) => {
  if (m.type !== 'flush') return;
  void (async () => {
    await service.assembler.flush();
    const peakRss = rss.stop();
    const at = rss.atPeak;
    const memory = `start ${mib(rss.start)} MiB, peak ${mib(peakRss)} MiB${at ? ` (heap used ${mib(at.heapUsed)} / total ${mib(at.heapTotal)}, external ${mib(at.external)}, array buffers ${mib(at.arrayBuffers)})` : ''}`;
    const result: IngestChildResult = { type: 'done', assembled: assembledAt.length, assembledAt, peakRss, hwm: vmHwm(), memory };
    process.send?.(result, () => {
      void service.shutdown(Date.now() + 30_000).finally(() => process.exit(0));
    });
  })();
});
process.send?.({ type: 'ready', port: service.ports().http ?? 0 });
