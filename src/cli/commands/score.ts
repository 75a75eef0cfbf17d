/**
 * `tracejudge score [-c FILE] [--all] [--format jsonl|table] FILE...`: offline scoring with the same
 * engine as `serve`. `--dataset FILE` scores JSON lines of `{input, output?, groundTruth?}` instead
 * (src/cli/dataset.ts). Records go to stdout (JSON lines, or a table at the end); a progress line goes to
 * stderr on a TTY. The sampling policy is honoured unless `--all`.
 */
import type { EmitResult, Emitter, ScoreRecord } from '../../model/score-record.js';
import { replayOptionsFromArgs, replayKafka } from '../../ingest/kafka/replay.js';
import { scorersFromConfig } from '../../pipeline/from-config.js';
import { createPipeline, pipelineOptionsFromConfig } from '../../pipeline/pipeline.js';
import { boostSignalScorers } from '../../sampling/boost-signals.js';
import { createSamplingPolicy } from '../../sampling/policy.js';
import { trajectoryFromRun } from '../../scorers/trajectory/from-trace.js';
import { loadCliConfig } from '../load-cli-config.js';
import { assembleFiles } from '../offline.js';
import { readDataset, scoreDataset } from '../dataset.js';
import { writeError, writeRecord } from '../output.js';
import { Progress } from '../progress.js';
import { formatTable } from '../table.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

const FORMATS = ['jsonl', 'table'] as const;
type Format = (typeof FORMATS)[number];

/** Prints records as they are produced (jsonl) or keeps them for the table. */
class PrintingEmitter implements Emitter {
  readonly name = 'stdout';
  readonly kept: ScoreRecord[] = [];
  constructor(private readonly format: Format) {}
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    if (this.format === 'jsonl') for (const r of records) writeRecord(JSON.stringify(r));
    else this.kept.push(...records);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function tableOf(records: readonly ScoreRecord[]): string {
  return formatTable(
    ['TRACE', 'SPAN', 'AGENT', 'SCORER', 'SCORE', 'LABEL', 'REASON'],
    records.map((r) => [
      r.traceId,
      r.spanId,
      r.agentName,
      r.scorer,
      r.score === undefined ? 'error' : String(r.score),
      r.label ?? r.error?.type ?? '',
      (r.reason ?? r.error?.message ?? '').replace(/\s+/g, ' ').slice(0, 80),
    ]),
  ).trimEnd();
}

export async function scoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('score', args, {
    ...configOption,
    all: { type: 'boolean' },
    format: { type: 'string', default: 'jsonl' },
    kafka: { type: 'string' },
    'from-beginning': { type: 'boolean' },
    'until-end': { type: 'boolean' },
    dataset: { type: 'string' },
  });
  const format = values.format as Format;
  if (!(FORMATS as readonly string[]).includes(format)) throw usageError(`score: --format must be jsonl or table, got ${JSON.stringify(values.format)}`);
  const { config, path } = loadCliConfig(values.config);
  if (values.dataset !== undefined) {
    if (positionals.length > 0) throw usageError('score: give either --dataset FILE or trace files, not both');
    const { items, withoutOutput } = readDataset(values.dataset);
    if (withoutOutput.length > 0) writeError(`${values.dataset}: ${withoutOutput.length} item(s) without "output" left out (lines ${withoutOutput.slice(0, 10).join(', ')}${withoutOutput.length > 10 ? ', …' : ''})`);
    if (items.length === 0) throw usageError(`score: ${values.dataset} has no item with an output`);
    const built = await scorersFromConfig(config, { configPath: path });
    const result = await scoreDataset(items, built.scorers, config.judge.concurrency, (line) => writeRecord(JSON.stringify(line)));
    built.judge?.close();
    writeRecord(JSON.stringify({ summary: result.summary, scores: result.scores }));
    return 0;
  }
  const { scorers, kinds, economics, judge } = await scorersFromConfig(config, { configPath: path });
  const policy = values.all ? undefined : createSamplingPolicy(config.sampling, kinds);
  const signals = boostSignalScorers(config.sampling);
  const emitter = new PrintingEmitter(format);
  const pipeline = createPipeline({
    ...pipelineOptionsFromConfig(config),
    scorers,
    ...(policy ? { policy: () => policy, signalScorers: () => signals } : {}),
    emitter,
    source: 'file',
    trajectoryOf: (context, traceSpans) => trajectoryFromRun(context, traceSpans),
        ...(economics ? { economics } : {}),
  });
  const progress = new Progress('score');
  let traces = 0;
  const replay = replayOptionsFromArgs(values, positionals, config);
  if (replay) await replayKafka({ ...replay, onTrace: (trace) => pipeline.handleTrace(trace), onProgress: (done, total) => progress.update(done, total || undefined, `messages, ${pipeline.stats().records} records`) });
  else await assembleFiles('score', positionals, config, async (trace) => {
    await pipeline.handleTrace(trace);
    traces++;
    progress.update(traces, undefined, `traces, ${pipeline.stats().records} records`);
  });
  await pipeline.idle();
  judge?.close();
  progress.done();
  if (format === 'table') writeRecord(tableOf(emitter.kept));
  return 0;
}
