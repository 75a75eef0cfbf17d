import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { createMetricsEndpoint } from '../../src/telemetry/metrics.js';

const issues = (raw: unknown): string[] => {
  const r = configSchema.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('live.publicUrl', () => {
  it('takes an http(s) URL without query or fragment and drops a trailing slash', () => {
    expect(configSchema.parse({ live: { publicUrl: 'https://tj.example.com/live/' } }).live.publicUrl).toBe('https://tj.example.com/live');
    expect(configSchema.parse({}).live.publicUrl).toBeUndefined();
    expect(issues({ live: { publicUrl: 'ftp://tj.example.com' } })).toEqual(['live.publicUrl: must be an http:// or https:// URL']);
    expect(issues({ live: { publicUrl: 'https://tj.example.com/?a=1' } })).toEqual(['live.publicUrl: must have no query or fragment']);
  });

  it('is published on /metrics as tracejudge_live_info{url}, and only when set with the page on', async () => {
    const scrape = async (live: Record<string, unknown>): Promise<string> => {
      const config = configSchema.parse({ emit: { prometheus: { port: 0 } }, live });
      const settings = createSettings(config, { env: {}, logger: silentLogger() });
      const endpoint = createMetricsEndpoint({ meters: settings.meters, host: '127.0.0.1', port: 0, logger: settings.logger });
      await endpoint.start();
      try {
        return await (await fetch(endpoint.url ?? '')).text();
      } finally {
        await endpoint.shutdown(Date.now() + 5000);
      }
    };
    expect(await scrape({ publicUrl: 'https://tj.example.com/' })).toMatch(/^tracejudge_live_info\{url="https:\/\/tj\.example\.com",otel_scope_name="tracejudge"\} 1$/m);
    expect(await scrape({})).not.toMatch(/^tracejudge_live_info\{/m);
    expect(await scrape({ enabled: false, publicUrl: 'https://tj.example.com' })).not.toMatch(/^tracejudge_live_info\{/m);
  });
});
