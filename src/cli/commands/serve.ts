/**
 * `tracejudge serve [-c FILE]`: runs the service until SIGTERM/SIGINT, then stops intake, flushes, and
 * exits 0 within `telemetry.shutdownTimeoutMs` (1 when the deadline passes first).
 */
import { errorMessage } from '../../errors.js';
import { logger } from '../../telemetry/log.js';
import { startService } from '../../service.js';
import { loadCliConfig } from '../load-cli-config.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

export async function serveCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', args, configOption);
  if (positionals.length > 0) throw usageError(`serve: unexpected argument ${JSON.stringify(positionals[0])}`);
  const { config, path } = loadCliConfig(values.config);
  logger.info({ config: path ?? '<defaults>' }, 'starting tracejudge serve');
  const service = await startService(config, path ? { configPath: path } : {});
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const deadlineMs = config.telemetry.shutdownTimeoutMs;
  logger.info({ signal, shutdownTimeoutMs: deadlineMs }, 'shutting down');
  const again = (s: NodeJS.Signals): void => logger.warn({ signal: s }, 'already shutting down; waiting for the deadline');
  process.on('SIGTERM', again);
  process.on('SIGINT', again);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  try {
    const outcome = await Promise.race([service.stop(Date.now() + deadlineMs - 250).then(() => 'stopped' as const), deadline]);
    if (outcome === 'deadline') {
      logger.error({ shutdownTimeoutMs: deadlineMs }, 'shutdown did not finish within telemetry.shutdownTimeoutMs');
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
