/**
 * `tracejudge extract [-c FILE] [--explain] FILE...`: prints every agent run found (SPEC §5), one JSON
 * object per line on stdout. `--explain` also writes, per trace, which conventions and spans were seen
 * and why no run was found, as text lines on stderr (stdout keeps only records).
 */
import { extractTraces } from '../../extract/extract.js';
import { loadCliConfig } from '../load-cli-config.js';
import { assembleFiles } from '../offline.js';
import { writeError, writeRecord } from '../output.js';
import { configOption, parseCommandArgs } from '../usage.js';
import { explainText } from '../../extract/explain.js';

export async function extractCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('extract', args, { ...configOption, explain: { type: 'boolean' } });
  const { config } = loadCliConfig(values.config);
  await assembleFiles('extract', positionals, config, (trace) => {
    for (const t of extractTraces(trace, config.extract)) {
      for (const c of t.contexts) writeRecord(JSON.stringify(c.run));
      if (values.explain) writeError(explainText(t.explanation));
    }
    return Promise.resolve();
  });
  return 0;
}
