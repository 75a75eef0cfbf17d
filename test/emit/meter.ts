/** Installs a real SDK meter into `telemetry()` and reads back sums, for asserting what was counted. */
import { DataPointType, MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { useMeter } from '../../src/telemetry/instruments.js';

class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface TestMeter {
  /** Sum of a counter's points whose attributes include `match`. */
  sum(name: string, match?: Record<string, string>): Promise<number>;
  /** Histogram points of an instrument. */
  histogram(name: string): Promise<DataPoint<Histogram>[]>;
  shutdown(): Promise<void>;
}

export function installTestMeter(): TestMeter {
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  useMeter(provider.getMeter('test'));
  const collect = async () => (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  return {
    async sum(name, match = {}) {
      let total = 0;
      for (const m of await collect()) {
        if (m.descriptor.name !== name || m.dataPointType !== DataPointType.SUM) continue;
        for (const p of m.dataPoints) {
          if (Object.entries(match).every(([k, v]) => p.attributes[k] === v)) total += p.value;
        }
      }
      return total;
    },
    async histogram(name) {
      const out: DataPoint<Histogram>[] = [];
      for (const m of await collect()) if (m.descriptor.name === name && m.dataPointType === DataPointType.HISTOGRAM) out.push(...m.dataPoints);
      return out;
    },
    shutdown: () => provider.shutdown(),
  };
}
