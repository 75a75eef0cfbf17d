/**
 * `tracejudge score [-c FILE] [--all] [--format jsonl|table] FILE...`: offline scoring. Until scoring is
 * plugged in, each assembled trace is printed (JSON lines, or one table row per trace).
 */
import { describeTrace, type TraceDescription } from '../describe-trace.js';
import { loadCliConfig } from '../load-cli-config.js';
import { assembleFiles } from '../offline.js';
import { writeRecord } from '../output.js';
import { formatTable } from '../table.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

const FORMATS = ['jsonl', 'table'] as const;
type Format = (typeof FORMATS)[number];

export async function scoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('score', args, {
    ...configOption,
    all: { type: 'boolean' },
    format: { type: 'string', default: 'jsonl' },
  });
  const format = values.format;
  if (!(FORMATS as readonly string[]).includes(format)) throw usageError(`score: --format must be jsonl or table, got ${JSON.stringify(format)}`);
  const { config } = loadCliConfig(values.config);
  const rows: TraceDescription[] = [];
  await assembleFiles('score', positionals, config, (trace) => {
    const d = describeTrace(trace);
    if ((format as Format) === 'jsonl') writeRecord(JSON.stringify(d));
    else rows.push(d);
    return Promise.resolve();
  });
  if ((format as Format) === 'table') {
    writeRecord(
      formatTable(
        ['TRACE', 'SPANS', 'LOGS', 'ROOT'],
        rows.map((r) => [r.traceId, String(r.spanCount), String(r.logCount), r.root?.name ?? '(none)']),
      ).trimEnd(),
    );
  }
  return 0;
}
