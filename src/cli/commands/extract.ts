/**
 * `tracejudge extract [-c FILE] [--explain] FILE...`: prints every agent run found, one JSON object per
 * line on stdout (the shape is in docs/records.md). `--explain` also writes, per trace, which conventions
 * and spans were seen, why no run was found and which runs were found empty (no input or output text, with
 * the likely cause), as text lines on stderr (stdout keeps only records).
 */
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import { emptyRunWarning } from '../../extract/empty-runs.js';
import { explainText } from '../../extract/explain.js';
import { Extractor } from '../../extract/extract.js';
import { buildService, runToEnd } from '../../service/build.js';
import { createSettings } from '../../service/settings.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import { EXTRACT } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

export async function extractCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(EXTRACT, args);
  const { config, scorers } = loadCliConfig(values.config, cli);
  if (positionals.length === 0) throw usageError('extract: no input files (use - for stdin)');
  const settings = createSettings(config, { logger: cli.logger, secrets: cli.secrets, scorers, prometheus: false });
  const extractor = new Extractor(config.extract, settings.keyFlags);
  const service = await buildService(config, settings, {
    source: { kind: 'files', paths: positionals },
    handleTrace: async (trace) => {
      for (const t of extractor.traces(trace)) {
        for (const c of t.contexts) await cli.output.record(JSON.stringify(c.run));
        if (!values.explain) continue;
        const warnings = t.contexts.flatMap((c) => {
          const w = emptyRunWarning(c.run, trace.logs.length, t.explanation.framework);
          return w === undefined ? [] : [`trace ${t.traceId}: warning: ${w}`];
        });
        cli.output.error([explainText(t.explanation), ...warnings].join('\n'));
      }
    },
  });
  await runToEnd(service);
  const { handlerErrors, tracesAssembled } = service.assembler.stats;
  if (handlerErrors > 0) throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `extract: ${handlerErrors} of ${tracesAssembled} traces failed (see the log)`);
  return 0;
}
