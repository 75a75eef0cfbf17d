import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { createSettings } from '../../src/service/settings.js';
import { ExemplarStore } from '../../src/telemetry/exemplars.js';
import { SCORE_BUCKETS } from '../../src/telemetry/instruments.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { createMetricsEndpoint } from '../../src/telemetry/metrics.js';
import { acceptsOpenMetrics, parseLabels, toOpenMetrics } from '../../src/telemetry/openmetrics.js';
import { scoreRecord } from '../emit/records.js';

const PROMETHEUS_ACCEPT = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const T1 = '0af7651916cd43dd8448eb211c80319c';
const T2 = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('content negotiation', () => {
  it('serves OpenMetrics when Accept names it with q above 0, the plain format otherwise', () => {
    expect(acceptsOpenMetrics(PROMETHEUS_ACCEPT)).toBe(true);
    expect(acceptsOpenMetrics('application/openmetrics-text')).toBe(true);
    expect(acceptsOpenMetrics('application/openmetrics-text;q=0,text/plain')).toBe(false);
    expect(acceptsOpenMetrics('text/plain;version=0.0.4')).toBe(false);
    expect(acceptsOpenMetrics('*/*')).toBe(false);
    expect(acceptsOpenMetrics(undefined)).toBe(false);
  });
});

describe('ExemplarStore', () => {
  it('keeps the last trace per series and bucket, ignores ids that are not trace ids, and stays bounded', () => {
    const store = new ExemplarStore(SCORE_BUCKETS, 4);
    store.record({ scorer: 'grounding', agent: 'a' }, 'fail', T1, 0, 1000);
    store.record({ scorer: 'grounding', agent: 'a' }, 'fail', T2, 0.05, 2000);
    expect(store.counter('grounding', 'a', 'fail')).toEqual({ traceId: T2, value: 1, timeMs: 2000 });
    expect(store.bucket('grounding', 'a', '0')?.traceId).toBe(T1);
    expect(store.bucket('grounding', 'a', '0.1')).toEqual({ traceId: T2, value: 0.05, timeMs: 2000 });
    expect(store.bucketOf(1)).toBe('1');
    expect(store.bucketOf(1.5)).toBe('+Inf');
    store.record({ scorer: 'grounding', agent: 'b' }, 'pass', 'not-a-trace-id', 1, 3000);
    expect(store.counter('grounding', 'b', 'pass')).toBeUndefined();
    for (let i = 0; i < 10; i++) store.record({ scorer: 's', agent: `agent-${i}` }, 'pass', T1, undefined, 4000);
    expect(store.size).toBeLessThanOrEqual(8);
    expect(store.counter('grounding', 'a', 'fail')).toBeUndefined();
    expect(store.counter('s', 'agent-9', 'pass')?.traceId).toBe(T1);
  });
});

describe('toOpenMetrics', () => {
  it('renames counter families, drops UNIT, escapes HELP quotes, adds exemplars and # EOF, leaves samples alone', () => {
    const store = new ExemplarStore(SCORE_BUCKETS);
    store.record({ scorer: 'grounding', agent: 'say "hi"\\' }, 'fail', T1, 0, 1_700_000_000_123);
    const text = [
      '# HELP tracejudge_evaluations_total Evaluations "by" outcome.',
      '# UNIT tracejudge_evaluations_total {evaluation}',
      '# TYPE tracejudge_evaluations_total counter',
      'tracejudge_evaluations_total{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",outcome="fail",otel_scope_name="tracejudge"} 3',
      'tracejudge_evaluations_total{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",outcome="pass",otel_scope_name="tracejudge"} 1',
      '# HELP tracejudge_evaluation_score Scores.',
      '# TYPE tracejudge_evaluation_score histogram',
      'tracejudge_evaluation_score_bucket{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",le="0"} 1',
      'tracejudge_evaluation_score_bucket{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",le="0.1"} 1',
      '',
    ].join('\n');
    const om = toOpenMetrics(text, store).split('\n');
    expect(om).toEqual([
      '# HELP tracejudge_evaluations Evaluations \\"by\\" outcome.',
      '# TYPE tracejudge_evaluations counter',
      'tracejudge_evaluations_total{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",outcome="fail",otel_scope_name="tracejudge"} 3 # {trace_id="0af7651916cd43dd8448eb211c80319c"} 1 1700000000.123',
      'tracejudge_evaluations_total{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",outcome="pass",otel_scope_name="tracejudge"} 1',
      '# HELP tracejudge_evaluation_score Scores.',
      '# TYPE tracejudge_evaluation_score histogram',
      'tracejudge_evaluation_score_bucket{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",le="0"} 1 # {trace_id="0af7651916cd43dd8448eb211c80319c"} 0 1700000000.123',
      'tracejudge_evaluation_score_bucket{gen_ai_evaluation_name="grounding",gen_ai_agent_name="say \\"hi\\"\\\\",le="0.1"} 1',
      '# EOF',
      '',
    ]);
  });

  it('parses escaped label values', () => {
    const line = 'm{a="x\\"y",b="1\\\\2\\n"} 1';
    expect(parseLabels(line, 1)).toEqual(new Map([['a', 'x"y'], ['b', '1\\2\n']]));
    expect(parseLabels('m{a="x} 1', 1)).toBeUndefined();
  });
});

describe('/metrics in both formats from one service', () => {
  it('serves the same samples in both; only OpenMetrics carries exemplars, and of the recorded trace', async () => {
    const config = configSchema.parse({ emit: { prometheus: { port: 0 } } });
    const settings = createSettings(config, { env: {}, logger: silentLogger() });
    const endpoint = createMetricsEndpoint({ meters: settings.meters, host: '127.0.0.1', port: 0, logger: settings.logger });
    await endpoint.start();
    try {
      settings.telemetry.recordScore(scoreRecord({ score: 0.75, label: 'fail', traceId: T1 }));
      settings.telemetry.recordScore(scoreRecord({ score: 0.05, label: 'pass', traceId: T2 }));
      const url = endpoint.url ?? '';
      const plain = await fetch(url);
      const om = await fetch(url, { headers: { accept: PROMETHEUS_ACCEPT } });
      expect(plain.headers.get('content-type')).toBe('text/plain');
      expect(om.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
      const plainText = await plain.text();
      const omText = await om.text();
      expect(plainText).not.toContain('trace_id');
      expect(plainText).not.toContain(T1);
      expect(omText.endsWith('# EOF\n')).toBe(true);
      const samples = (t: string): string[] =>
        t
          .split('\n')
          .filter((l) => l !== '' && !l.startsWith('#'))
          .map((l) => l.replace(/ # \{.*$/, ''));
      expect(samples(omText)).toEqual(samples(plainText));
      expect(omText).toMatch(new RegExp(`^tracejudge_evaluations_total\\{[^}]*outcome="fail"[^}]*\\} 1 # \\{trace_id="${T1}"\\} 1 \\d+\\.\\d{3}$`, 'm'));
      expect(omText).toMatch(new RegExp(`^tracejudge_evaluations_total\\{[^}]*outcome="pass"[^}]*\\} 1 # \\{trace_id="${T2}"\\} 1 `, 'm'));
      expect(omText).toMatch(new RegExp(`^tracejudge_evaluation_score_bucket\\{[^}]*le="0.8"\\} 2 # \\{trace_id="${T1}"\\} 0.75 `, 'm'));
      expect(omText).toMatch(/^# TYPE tracejudge_evaluations counter$/m);
      expect(omText).not.toContain('# UNIT');
    } finally {
      await endpoint.shutdown(Date.now() + 5000);
    }
  });
});
