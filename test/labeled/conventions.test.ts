/**
 * The three standard scenarios in every fixture convention (test/fixtures/traces/, produced by the real
 * libraries): the grounded weather answer passes the embedded default, the answer that contradicts the
 * weather tool (25 °C and sunny vs 18 °C and light rain) fails, and the off-topic answer fails.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectRuns } from '../../src/calibrate/collect.js';
import { verdictOf } from '../../src/calibrate/report.js';
import { parseConfig } from '../../src/config/load.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';

const dir = fileURLToPath(new URL('../fixtures/traces/', import.meta.url));
/** Convention → its grounded fixture (two tools; the early Mastra generator has one). */
const CONVENTIONS: Record<string, string> = {
  aisdk6: 'two-tools',
  'aisdk7-otel': 'two-tools',
  openinference: 'two-tools',
  openllmetry: 'two-tools',
  'otel-openai': 'two-tools',
  mastra: 'two-tools',
  mastra0: 'one-tool',
};

async function verdict(fixture: string): Promise<string> {
  const files = [`${dir}${fixture}.json`, ...(existsSync(`${dir}${fixture}.logs.json`) ? [`${dir}${fixture}.logs.json`] : [])];
  const registry = createScorerRegistry();
  const config = parseConfig({}, '<defaults>', {}, { scorers: registry });
  const { runs } = await collectRuns(config, createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false }), files);
  expect(runs).toHaveLength(1);
  return verdictOf(runs[0]?.records ?? []);
}

describe.each(Object.entries(CONVENTIONS))('%s', (prefix, grounded) => {
  it('grounded → pass, contradiction → fail, off-topic → fail', async () => {
    expect(await verdict(`${prefix}-${grounded}`)).toBe('pass');
    expect(await verdict(`${prefix}-contradiction`)).toBe('fail');
    expect(await verdict(`${prefix}-off-topic`)).toBe('fail');
  }, 60_000);
});
