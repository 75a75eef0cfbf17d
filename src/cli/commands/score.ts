/**
 * `tracejudge score [-c FILE] [--all] [--format jsonl|table] FILE...`: offline scoring through the same
 * service graph as `serve`, so records also go to every configured emitter (JSON-lines file, OTLP, Kafka,
 * OTLP metrics). `--kafka TOPIC` replays a topic instead of reading files; `--dataset FILE` scores JSON
 * lines of `{input, output?, groundTruth?}`. On stdout: one score record per line (or a table at the
 * end; a dataset prints one line per item and scorer, then the mean per scorer). On a TTY a progress bar
 * (done/total, rate, ETA) goes to stderr; a closing summary per agent and scorer (count, mean, fails) always
 * does. The sampling policy is honoured unless `--all`.
 */
import { basename } from 'node:path';
import type { RecordSender } from '../../emit/buffered-emitter.js';
import type { EmitResult } from '../../emit/emitter.js';
import { toJsonLine } from '../../emit/jsonl-file.js';
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import { readDataset } from '../../ingest/files/dataset-source.js';
import type { KafkaReplayOptions } from '../../ingest/kafka/replay.js';
import type { ScoreRecord } from '../../model/score-record.js';
import type { RunObserver } from '../../pipeline/pipeline.js';
import { buildService, runToEnd, type Service, type SourcePlan } from '../../service/build.js';
import { createSettings } from '../../service/settings.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import type { RecordOutput } from '../output.js';
import { Progress } from '../progress.js';
import { SummaryTally, summaryOf, TableRows, tableOf } from '../score-report.js';
import { terminalWidth } from '../table.js';
import { SCORE } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

const FORMATS = ['jsonl', 'table'] as const;
type Format = (typeof FORMATS)[number];

/** Score records as JSON lines on the command's stdout, with back-pressure. */
class LinesSender implements RecordSender {
  readonly name = 'stdout';
  constructor(private readonly output: RecordOutput) {}
  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    await this.output.record(records.map(toJsonLine).join('').slice(0, -1));
    return { code: 'success' };
  }
}

/** `--format table` prints a table at the end instead of JSON lines: the records come from {@link TableRows}. */
class TableSender implements RecordSender {
  readonly name = 'stdout';
  send(): Promise<EmitResult> {
    return Promise.resolve({ code: 'success' });
  }
}

/** One line per dataset item and scorer, in the dataset's terms (`line`, not trace ids). */
class DatasetSender implements RecordSender {
  readonly name = 'stdout';
  lineOf: (traceId: string) => number | undefined = () => undefined;
  readonly scores = new Map<string, number[]>();
  constructor(private readonly output: RecordOutput) {}
  async send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    for (const r of records) {
      if (typeof r.score === 'number') {
        let list = this.scores.get(r.scorer);
        if (!list) this.scores.set(r.scorer, (list = []));
        list.push(r.score);
      }
      const line = {
        line: this.lineOf(r.traceId),
        scorer: r.scorer,
        ...(r.score !== undefined ? { score: r.score, label: r.label } : {}),
        threshold: r.threshold,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
        ...(r.error ? { error: r.error } : {}),
      };
      await this.output.record(JSON.stringify(line));
    }
    return { code: 'success' };
  }
  summary(totalItems: number): { summary: { totalItems: number }; scores: Record<string, number> } {
    const scores: Record<string, number> = {};
    for (const [name, list] of this.scores) scores[name] = list.reduce((a, b) => a + b, 0) / list.length;
    return { summary: { totalItems }, scores };
  }
}

/** The `score` flags that select a replay. */
interface ReplayArgs {
  kafka?: string | undefined;
  'from-beginning'?: boolean | undefined;
  'until-end'?: boolean | undefined;
}

/**
 * Replay options from the flags, or undefined when `--kafka` is absent (files are scored). Without
 * `--until-end` the replay follows the topic until SIGINT/SIGTERM.
 */
function replayOf(args: ReplayArgs, positionals: readonly string[], kafka: KafkaReplayOptions['kafka']): KafkaReplayOptions | undefined {
  if (args.kafka === undefined) {
    if (args['from-beginning'] || args['until-end']) throw usageError('score: --from-beginning and --until-end need --kafka TOPIC');
    return undefined;
  }
  if (args.kafka === '') throw usageError('score: --kafka needs a topic name');
  if (positionals.length > 0) throw usageError('score: give either --kafka TOPIC or trace files, not both');
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { kafka, topic: args.kafka, fromBeginning: args['from-beginning'] === true, untilEnd: args['until-end'] === true, signal: abort.signal };
}

export async function scoreCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(SCORE, args);
  const format = values.format as Format;
  if (!(FORMATS as readonly string[]).includes(format)) throw usageError(`score: --format must be jsonl or table, got ${JSON.stringify(values.format)}`);
  const { config, path, scorers } = loadCliConfig(values.config, cli);

  let source: SourcePlan;
  let stdout: LinesSender | TableSender | DatasetSender;
  let datasetItems = 0;
  if (values.dataset !== undefined) {
    if (positionals.length > 0) throw usageError('score: give either --dataset FILE or trace files, not both');
    const { items, withoutOutput } = readDataset(values.dataset);
    if (withoutOutput.length > 0) cli.output.error(`${values.dataset}: ${withoutOutput.length} item(s) without "output" left out (lines ${withoutOutput.slice(0, 10).join(', ')}${withoutOutput.length > 10 ? ', …' : ''})`);
    if (items.length === 0) throw usageError(`score: ${values.dataset} has no item with an output`);
    source = { kind: 'dataset', file: basename(values.dataset), items };
    stdout = new DatasetSender(cli.output);
    datasetItems = items.length;
  } else {
    const replay = replayOf(values, positionals, config.sources.kafka);
    if (!replay && positionals.length === 0) throw usageError('score: no input files (use - for stdin)');
    source = replay ? { kind: 'kafka-replay', replay } : { kind: 'files', paths: positionals };
    stdout = format === 'table' ? new TableSender() : new LinesSender(cli.output);
  }

  const settings = createSettings(config, { logger: cli.logger, secrets: cli.secrets, scorers, prometheus: false });
  const progress = new Progress('score');
  const replayProgress = (done: number, total: number): void => progress.update(done, total || undefined, 'messages');
  if (source.kind === 'kafka-replay') source = { ...source, replay: { ...source.replay, onProgress: replayProgress } };
  const summary = new SummaryTally();
  const table = stdout instanceof TableSender ? new TableRows() : undefined;
  const observers: RunObserver[] = [summary, ...(table ? [table] : [])];
  const service = await buildService(config, settings, { source, sampleAll: values.all === true, stdout, observers, ...(path ? { configPath: path } : {}) });
  if (stdout instanceof DatasetSender && service.dataset) stdout.lineOf = service.dataset.lineOf;
  await run(service, progress, source.kind === 'files');
  if (table) await cli.output.record(tableOf(table.rows, terminalWidth(process.stdout)));
  if (stdout instanceof DatasetSender) await cli.output.record(JSON.stringify(stdout.summary(datasetItems)));
  cli.output.error(summaryOf(summary.tally, summary.runs, terminalWidth(process.stderr), summary.skipped));
  return 0;
}

/** Start, wait for the sources to finish, shut down (flushing every emitter); fail when traces failed. */
async function run(service: Service, progress: Progress, showTraces: boolean): Promise<void> {
  // Files: the total is every trace the assembler has seen (known once the files are read), done are the
  // traces whose evaluations were all emitted.
  const timer = showTraces && progress.enabled
    ? setInterval(() => {
        const s = service.pipeline?.stats();
        if (!s) return;
        const seen = service.assembler.stats.tracesAssembled + service.assembler.bufferedTraces;
        progress.update(s.tracesDone, seen, 'traces', `${s.records + s.errors} records`);
      }, 100)
    : undefined;
  timer?.unref();
  try {
    await runToEnd(service);
  } finally {
    clearInterval(timer);
    progress.done();
  }
  const { handlerErrors, tracesAssembled } = service.assembler.stats;
  if (handlerErrors > 0) throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `score: ${handlerErrors} of ${tracesAssembled} traces failed (see the log)`);
}
