/**
 * The service resolves model strings through the same resolver as library code: `tracejudge score` with
 * `judge.model: openai/gpt-4o-mini` sends `gpt-4o-mini` to OPENAI_BASE_URL, and a YAML judge entry with
 * `model: acme/judge-large` goes to the `judge.providers.acme` endpoint with its key. check-config reports
 * an unknown provider prefix at `judge.model`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createSettings } from '../../src/service/settings.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { CLAIMS_MARKER, expectedHallucinationScore, VERDICTS_MARKER } from '../e2e/judge-script.js';
import { childEnv, removeDir, ROOT, runCli, tempDir, type CliResult } from '../e2e/serve-process.js';

const FIXTURE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
const OPENAI_KEY = 'sk-service-openai-9d3b5f7a1c';
const ACME_KEY = 'sk-service-acme-2e4c6a8b0d';
const CLAIMS = ['It is 18°C in Paris.', 'It rains in Paris.'];
const VERDICTS = ['no', 'yes'];

let openai: StubJudge;
let acme: StubJudge;
let dir: string;
let result: CliResult;
let records: Record<string, unknown>[];

const configText = (acmeURL: string): string =>
  [
    'judge:',
    '  model: openai/gpt-4o-mini',
    '  maxRetries: 0',
    '  providers:',
    `    acme: { baseURL: "${acmeURL}", apiKeyEnv: ACME_LLM_KEY }`,
    'sampling:',
    '  default: { rate: 1 }',
    'scorers:',
    '  hallucination: { type: hallucination, reason: never }',
    '  polite: { type: judge, model: acme/judge-large, prompt: "Is this answer polite?\\n{{output}}", choices: { "yes": 1, "no": 0 }, reason: never }',
    '',
  ].join('\n');

beforeAll(async () => {
  openai = await startStubJudge({
    script: byMarker([
      [CLAIMS_MARKER, reply.json({ claims: CLAIMS })],
      [VERDICTS_MARKER, reply.json({ verdicts: CLAIMS.map((statement, i) => ({ statement, verdict: VERDICTS[i], reason: 'r' })) })],
    ]),
  });
  acme = await startStubJudge({ script: byMarker([['Is this answer polite?', reply.json({ choice: 'yes' })]]) });
  dir = await tempDir('judge-router');
  await writeFile(join(dir, 'score.yaml'), configText(acme.baseURL));
  result = await runCli(
    ['score', '-c', join(dir, 'score.yaml'), FIXTURE],
    childEnv({ OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: OPENAI_KEY, ACME_LLM_KEY: ACME_KEY }, 'warn'),
  );
  records = result.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}, 90_000);

afterAll(async () => {
  await openai?.close();
  await acme?.close();
  await removeDir(dir);
});

describe('a service config with model strings', () => {
  it('score sends the stripped model id to OPENAI_BASE_URL with OPENAI_API_KEY', () => {
    expect(result.code, result.stderr).toBe(0);
    const h = records.find((r) => r.scorer === 'hallucination');
    expect(h, result.stdout).toMatchObject({ score: expectedHallucinationScore(VERDICTS), judgeModel: 'gpt-4o-mini' });
    expect(h?.error).toBeUndefined();
    expect(openai.requests.length).toBeGreaterThanOrEqual(2);
    for (const r of openai.requests) {
      expect(r.model).toBe('gpt-4o-mini');
      expect(r.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    }
  });

  it('a YAML judge entry with model acme/judge-large goes to judge.providers.acme with ACME_LLM_KEY', () => {
    const polite = records.find((r) => r.scorer === 'polite');
    expect(polite, result.stdout).toMatchObject({ score: 1 });
    expect(polite?.error).toBeUndefined();
    expect(acme.requests).toHaveLength(1);
    expect(acme.requests[0]?.model).toBe('judge-large');
    expect(acme.requests[0]?.headers.authorization).toBe(`Bearer ${ACME_KEY}`);
    expect(openai.requests.some((r) => r.user.includes('Is this answer polite?'))).toBe(false);
    expect(result.stdout + result.stderr).not.toContain(OPENAI_KEY);
    expect(result.stdout + result.stderr).not.toContain(ACME_KEY);
  });

  it("the service's settings hold that resolver: its default client sends the stripped id", () => {
    const env = { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: OPENAI_KEY, ACME_LLM_KEY: ACME_KEY };
    const config = parseConfig({ judge: { model: 'openai/gpt-4o-mini', providers: { acme: { baseURL: acme.baseURL, apiKeyEnv: 'ACME_LLM_KEY' } } } }, 't.yaml', env);
    const settings = createSettings(config, { env, prometheus: false });
    expect(settings.judges.enabled).toBe(true);
    expect(settings.judges.client?.defaultModel).toBe('gpt-4o-mini');
    expect(settings.judges.judge.providers.acme).toMatchObject({ baseURL: acme.baseURL, apiKey: ACME_KEY, source: 'config' });
    settings.judges.close();
  });

  it('check-config reports an unknown provider prefix at judge.model', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'judge:\n  model: acme/judge-large\n');
    const bad = await runCli(['check-config', '-c', join(dir, 'bad.yaml')], childEnv({}, 'warn'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml: judge\.model: unknown provider "acme" \(known: openai, openrouter, ollama/);
  });

  it('a judge scorer whose provider has no key is refused with the variable to set', async () => {
    const { buildServiceScorers } = await import('../../src/service/scorers.js');
    const env = { OPENAI_API_KEY: OPENAI_KEY };
    const config = parseConfig({ judge: { model: 'openrouter/anthropic/claude-3.5-sonnet' }, scorers: { h: { type: 'hallucination' } } }, 't.yaml', env);
    const settings = createSettings(config, { env, prometheus: false });
    expect(settings.judges.enabled).toBe(false);
    await expect(buildServiceScorers(config, settings, 't.yaml')).rejects.toThrow(/scorers\.h\.type: type hallucination needs the LLM judge; .*set OPENROUTER_API_KEY/);
    settings.judges.close();
  });
});
