/**
 * The real service in this process with its real, configured emitters (createEmitters), so a test can take an
 * output down and watch what the service holds, acknowledges and delivers.
 */
import type { Logger } from 'pino';
import { parseConfig } from '../../../src/config/load.js';
import type { Config } from '../../../src/config/schema.js';
import { BufferedEmitter } from '../../../src/emit/buffered-emitter.js';
import { createEmitters } from '../../../src/emit/create-emitters.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { buildService, type Service } from '../../../src/service/build.js';
import { createSettings } from '../../../src/service/settings.js';
import { createLogger, Secrets } from '../../../src/telemetry/log.js';

export interface DeliveryService {
  service: Service;
  config: Config;
  /** The buffered outputs (OTLP, Kafka, JSON lines), to watch their buffers. */
  outputs: BufferedEmitter[];
  httpUrl: string;
}

/** The three code scorers of the crash tests: every run of the reliability templates gets records. */
export const CODE_SCORERS = { similarity: { type: 'content-similarity' }, tone: { type: 'tone' }, keywords: { type: 'keyword-coverage' } };

/** `logger`: where the service logs (default: the service's own, silent under vitest). */
export async function startDeliveryService(raw: Record<string, unknown>, logger?: Logger): Promise<DeliveryService> {
  const scorers = createScorerRegistry();
  const config = parseConfig(raw, 'delivery-test', {}, { scorers });
  const secrets = new Secrets();
  const settings = createSettings(config, { env: {}, scorers, secrets, logger: logger ?? createLogger({ secrets }) });
  const emitters = createEmitters(config, { settings });
  const service = await buildService(config, settings, { source: { kind: 'configured' }, emitters });
  await service.start();
  return {
    service,
    config,
    outputs: emitters.filter((e): e is BufferedEmitter => e instanceof BufferedEmitter),
    httpUrl: `http://127.0.0.1:${service.ports().http ?? 0}`,
  };
}
