/**
 * `tracejudge extract [-c FILE] [--explain] FILE...`: prints what was found per trace, one JSON object
 * per line. Until the extractor is plugged in, that is the assembled trace's description; `--explain`
 * is accepted and adds nothing yet.
 */
import { describeTrace } from '../describe-trace.js';
import { loadCliConfig } from '../load-cli-config.js';
import { assembleFiles } from '../offline.js';
import { configOption, parseCommandArgs } from '../usage.js';
import { writeRecord } from '../output.js';

export async function extractCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('extract', args, { ...configOption, explain: { type: 'boolean' } });
  const { config } = loadCliConfig(values.config);
  await assembleFiles('extract', positionals, config, (trace) => {
    writeRecord(JSON.stringify(describeTrace(trace)));
    return Promise.resolve();
  });
  return 0;
}
