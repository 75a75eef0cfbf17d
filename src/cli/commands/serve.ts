/**
 * `tracejudge serve [-c FILE]`: runs the service until SIGTERM/SIGINT, then stops intake, flushes, and
 * exits 0 within `telemetry.shutdownTimeoutMs` (1 when the deadline passes first).
 */
import { errorMessage } from '../../errors.js';
import { effectiveRates } from '../../sampling/rates.js';
import { SKIPPED_RUN_LOG_INTERVAL_MS, SkippedRunLog } from '../../pipeline/skipped-runs.js';
import { buildService } from '../../service/build.js';
import { createSettings } from '../../service/settings.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import { SERVE } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

export async function serveCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(SERVE, args);
  if (positionals.length > 0) throw usageError(`serve: unexpected argument ${JSON.stringify(positionals[0])}`);
  // A service logs its lifecycle (started, sampling rates, stopped) unless configured otherwise.
  const { config, path, scorers } = loadCliConfig(values.config, cli, { defaultLogLevel: 'info' });
  const { logger } = cli;
  logger.info({ config: path ?? '<defaults>' }, 'starting tracejudge serve');
  const settings = createSettings(config, { logger, secrets: cli.secrets, scorers });
  // Runs whose content was not captured get no record: say so, at most once a minute (src/pipeline/skipped-runs.ts).
  const skippedRuns = new SkippedRunLog({ logger: logger.child({ component: 'pipeline' }), intervalMs: SKIPPED_RUN_LOG_INTERVAL_MS, now: settings.now });
  const service = await buildService(config, settings, { source: { kind: 'configured' }, observers: [skippedRuns], ...(path ? { configPath: path } : {}) });
  await service.start();
  const agentKeys = Object.keys(config.sampling?.agents ?? {});
  for (const r of effectiveRates(service.policy.current().compiled, service.scorers, agentKeys)) logger.info(r, 'sampling rate');
  const signal = await Promise.race([
    new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    }),
    service.failed(),
  ]);
  const deadlineMs = config.telemetry.shutdownTimeoutMs;
  if (signal instanceof Error) {
    // A component gave up after the start (the Kafka brokers never answered): one line, then a clean stop.
    cli.output.error(`tracejudge: ${signal.message}`);
    await service.shutdown(Date.now() + deadlineMs);
    return 1;
  }
  logger.info({ signal, shutdownTimeoutMs: deadlineMs }, 'shutting down');
  const again = (s: NodeJS.Signals): void => logger.warn({ signal: s }, 'already shutting down; waiting for the deadline');
  process.on('SIGTERM', again);
  process.on('SIGINT', again);
  // Every component honours the deadline; the timer is the safety net for one that would not.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs + 1000);
  });
  try {
    const outcome = await Promise.race([service.shutdown(Date.now() + deadlineMs), deadline]);
    if (outcome === 'deadline' || !outcome.complete) {
      const left = outcome === 'deadline' ? {} : { unfinishedTraces: outcome.unfinishedTraces, pendingEvaluations: outcome.pendingEvaluations };
      logger.error({ shutdownTimeoutMs: deadlineMs, ...left }, 'shutdown did not finish within telemetry.shutdownTimeoutMs');
      return 1;
    }
    return 0;
  } catch (err) {
    logger.error({ err: errorMessage(err) }, 'shutdown failed');
    return 1;
  } finally {
    clearTimeout(timer);
  }
}
