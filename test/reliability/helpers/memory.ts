/** Samples memory on a timer and keeps the peaks (RSS and V8 heap) of this process or of a child. */
import { readFileSync } from 'node:fs';

export interface MemoryPeaks {
  startRssBytes: number;
  peakRssBytes: number;
  startHeapBytes: number;
  peakHeapBytes: number;
  samples: number;
}

/** Resident set size of another process from /proc (Linux), or undefined when it is gone. */
export function rssOfPid(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  readonly peaks: MemoryPeaks;

  /** Samples this process, or the process `pid` (RSS only) when given. */
  constructor(
    private readonly pid?: number,
    intervalMs = 100,
  ) {
    const first = this.sample();
    this.peaks = { startRssBytes: first.rss, peakRssBytes: first.rss, startHeapBytes: first.heap, peakHeapBytes: first.heap, samples: 1 };
    this.timer = setInterval(() => this.record(), intervalMs);
    this.timer.unref();
  }

  private sample(): { rss: number; heap: number } {
    if (this.pid !== undefined) return { rss: rssOfPid(this.pid) ?? 0, heap: 0 };
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed };
  }

  record(): void {
    const s = this.sample();
    this.peaks.samples++;
    this.peaks.peakRssBytes = Math.max(this.peaks.peakRssBytes, s.rss);
    this.peaks.peakHeapBytes = Math.max(this.peaks.peakHeapBytes, s.heap);
  }

  stop(): MemoryPeaks {
    this.record();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return this.peaks;
  }
}

export const mib = (bytes: number): number => Math.round((bytes / (1024 * 1024)) * 10) / 10;
