/**
 * The offline pipeline shared by `score` and `extract`: read and decode every input, feed the assembler,
 * flush it, and hand each assembled trace to `onTrace`. Fails (runtime error) when a handler failed.
 */
import type { Config } from '../config/schema.js';
import { ErrorCodes, TracejudgeError } from '../errors.js';
import { TraceAssembler, type TraceHandler } from '../ingest/assembler.js';
import { feedInputs, readInputs, type IngestTotals } from '../ingest/files/ingest-files.js';
import { logger } from '../telemetry/log.js';
import { usageError } from './usage.js';

export async function assembleFiles(command: string, paths: readonly string[], config: Config, onTrace: TraceHandler): Promise<IngestTotals> {
  if (paths.length === 0) throw usageError(`${command}: no input files (use - for stdin)`);
  const inputs = await readInputs(paths);
  const assembler = new TraceAssembler({ config: config.assembly, onTrace });
  const totals = await feedInputs(assembler, inputs);
  await assembler.close();
  const { stats } = assembler;
  logger.info({ ...totals, traces: stats.tracesAssembled, lateSpans: stats.lateSpans, duplicateSpans: stats.duplicateSpans }, `${command}: inputs read`);
  if (stats.handlerErrors > 0) {
    throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `${command}: ${stats.handlerErrors} of ${stats.tracesAssembled} traces failed (see the log)`);
  }
  return totals;
}
