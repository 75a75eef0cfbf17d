/**
 * Telemetry on an in-memory metric reader, for asserting what a component counted: hand `settings` to
 * the component (or `telemetry` to the settings you make), then read sums and histograms back.
 */
import { DataPointType, MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { componentSettings, type ComponentSettings } from '../component.js';
import { Telemetry } from '../telemetry/instruments.js';

class InMemoryReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface TestTelemetry {
  readonly telemetry: Telemetry;
  /** Component settings with `telemetry` (silent logger, `Date.now`, unless overridden). */
  readonly settings: ComponentSettings;
  /** Sum of a counter's (or gauge's) points whose attributes include `match`. */
  sum(name: string, match?: Record<string, string>): Promise<number>;
  /** Histogram points of an instrument. */
  histogram(name: string): Promise<DataPoint<Histogram>[]>;
  /** Last observed value of a gauge (0 when never observed). */
  gauge(name: string): Promise<number>;
  /** Every data point of every instrument, with its instrument name (to check what no metric carries). */
  points(): Promise<{ name: string; attributes: Record<string, unknown> }[]>;
  shutdown(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const t = createTestTelemetry();
 * const assembler = new TraceAssembler({ onTrace, settings: t.settings });
 * expect(await t.sum('tracejudge.traces.assembled')).toBe(1);
 * ```
 */
export function createTestTelemetry(overrides: Partial<Omit<ComponentSettings, 'telemetry'>> = {}): TestTelemetry {
  const reader = new InMemoryReader();
  const provider = new MeterProvider({ readers: [reader] });
  const telemetry = new Telemetry(provider.getMeter('test'));
  const collect = async () => (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  return {
    telemetry,
    settings: componentSettings({ ...overrides, telemetry }),
    async sum(name, match = {}) {
      let total = 0;
      for (const m of await collect()) {
        if (m.descriptor.name !== name || (m.dataPointType !== DataPointType.SUM && m.dataPointType !== DataPointType.GAUGE)) continue;
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
    async gauge(name) {
      let value = 0;
      for (const m of await collect()) {
        if (m.descriptor.name !== name || m.dataPointType !== DataPointType.GAUGE) continue;
        for (const p of m.dataPoints) value = p.value;
      }
      return value;
    },
    async points() {
      return (await collect()).flatMap((m) => (m.dataPoints as DataPoint<unknown>[]).map((p) => ({ name: m.descriptor.name, attributes: { ...p.attributes } })));
    },
    shutdown: () => provider.shutdown(),
  };
}
