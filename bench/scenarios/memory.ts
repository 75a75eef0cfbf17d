/** Memory: RSS per buffered span with 100,000 traces held in the assembler (child process, --expose-gc). */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Row } from '../lib/results.js';
import { mib } from '../lib/stats.js';
import type { BenchContext } from './context.js';
import type { MemoryResult } from './memory-child.js';
import { USE_DIST } from '../lib/use-dist-path.js';

const run = promisify(execFile);

export async function memoryScenario(ctx: BenchContext): Promise<Row[]> {
  const traces = ctx.quick ? 15_000 : 100_000;
  const child = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
  const { stdout } = await run(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', '--import', USE_DIST, child, String(traces)], {
    maxBuffer: 1024 * 1024,
    env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'warn' },
  });
  const r = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as MemoryResult;
  const perSpan = (r.filledRss - r.baselineRss) / r.spans;
  const scenario = `memory (${r.traces.toLocaleString('en-US')} buffered traces, ${r.spans.toLocaleString('en-US')} spans)`;
  const boundsOk = r.bufferedAfterOverflow <= r.maxBufferedTraces && r.refusedBatches > 0 && r.byteBound.bufferedBytes <= r.byteBound.maxBufferedBytes && r.byteBound.refused > 0;
  ctx.log(`memory: filled in ${r.fillSeconds.toFixed(1)} s; RSS ${mib(r.baselineRss)} → ${mib(r.filledRss)} MiB (peak ${mib(r.peakRss)})`);
  ctx.notes.push(
    `Memory: a child process (--expose-gc) decodes protobuf replicas of 2,000 generated traces (small profile, as recorded by the libraries) and offers them to a TraceAssembler with maxBufferedTraces ${r.maxBufferedTraces.toLocaleString('en-US')} and no decisions, until it refuses; RSS is read after three forced GCs. The byte bound is checked on a second assembler with maxBufferedBytes 32 MiB.${ctx.quick ? ' Quick mode holds 15,000 traces instead of 100,000.' : ''}`,
  );
  return [
    { scenario, metric: 'RSS per buffered span above baseline', value: perSpan, unit: 'B', target: '≤ 1024 B', met: perSpan <= 1024 },
    { scenario, metric: 'heap used per buffered span', value: r.heapUsedDelta / r.spans, unit: 'B' },
    { scenario, metric: 'assembler byte estimate per span', value: r.estimatedBytes / r.spans, unit: 'B', baseline: perSpan, baselineName: 'RSS/span', ratio: r.estimatedBytes / r.spans / perSpan },
    { scenario, metric: 'peak RSS / baseline RSS', value: mib(r.peakRss), unit: 'MiB', baseline: mib(r.baselineRss) },
    {
      scenario,
      metric: 'bounds respected (traces; bytes)',
      value: boundsOk ? 1 : 0,
      target: '= 1',
      met: boundsOk,
      note: `held ${r.bufferedAfterOverflow} ≤ ${r.maxBufferedTraces} traces (${r.refusedBatches} batches refused); ${r.byteBound.bufferedBytes} ≤ ${r.byteBound.maxBufferedBytes} bytes`,
    },
  ];
}
