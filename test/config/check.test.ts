/**
 * The one-pass config check: every section's errors together, with their key paths. Globs (agent patterns and
 * picomatch globs), thresholds against the scorer's range, record keys reported with their own message while
 * their values are still checked, the missing file in words, and — through `checkConfigFile`, the check of
 * `tracejudge check-config` — judge requirements, custom modules that cannot be loaded, and options with no
 * effect (`reason` on scorers without a reason step, sampling overrides for scorers that do not run).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConfig, loadConfig } from '../../src/config/load.js';
import { checkConfigFile } from '../../src/cli/config-check.js';
import { ErrorCodes, TracejudgeError, type ConfigIssue } from '../../src/errors.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { agentPatternProblem, picomatchProblem } from '../../src/util/glob.js';

const registry = createScorerRegistry();
const issues = (raw: unknown): ConfigIssue[] => checkConfig(raw, {}, { scorers: registry }).issues;
const at = (list: readonly ConfigIssue[], path: string): string[] => list.filter((i) => i.path === path).map((i) => i.message);

const dir = mkdtempSync(join(tmpdir(), 'tj-config-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('agent patterns and globs', () => {
  it('accepts * and ? globs and exact names, and refuses [ ] { } with where they are', () => {
    expect(agentPatternProblem('billing-*')).toBeUndefined();
    expect(agentPatternProblem('support-agent-v?')).toBeUndefined();
    expect(agentPatternProblem('billing-[')).toBe('invalid agent pattern "billing-[": "[" at character 9 is not supported (only * and ? are wildcards; character classes and braces are not)');
    expect(agentPatternProblem('{a,b}-agent')).toContain('"{" at character 1');
    expect(agentPatternProblem('')).toBe('invalid agent pattern: empty');
  });

  it('picomatch globs: unbalanced brackets, braces and parentheses', () => {
    expect(picomatchProblem('agent:*')).toBeUndefined();
    expect(picomatchProblem('{invoke,run}_agent *')).toBeUndefined();
    expect(picomatchProblem('agent:[')).toMatch(/^invalid glob "agent:\[": Missing closing: "\]"/);
    expect(picomatchProblem('x(y')).toMatch(/Missing closing: "\)"/);
  });

  it('reports every invalid glob of the config at its key path, and still checks the values under a bad key', () => {
    const list = issues({
      sampling: { agents: { 'billing-[': { rate: 1.5 }, 'ok-*': { rate: 0.5 } } },
      economics: { budgets: [{ agent: 'eu-{a,b}', perDay: { requests: 5 } }] },
      extract: { mapping: [{ name: 'agent:[', role: 'agent' }] },
      emit: { metrics: { allowAgents: ['billing-*', 'x(y'] } },
      scorers: { refunds: { type: 'agent-trajectory', agents: { 'support-[': { requires: { refund: ['orders'] } } } } },
    });
    expect(at(list, 'sampling.agents["billing-["]')).toEqual([expect.stringContaining('invalid agent pattern "billing-["')]);
    expect(at(list, 'sampling.agents["billing-["].rate')).toEqual(['must be between 0 and 1']);
    expect(at(list, 'sampling.agents["ok-*"]')).toEqual([]);
    expect(at(list, 'economics.budgets[0].agent')).toEqual([expect.stringContaining('invalid agent pattern "eu-{a,b}"')]);
    expect(at(list, 'extract.mapping[0].name')).toEqual([expect.stringContaining('invalid glob "agent:["')]);
    expect(at(list, 'emit.metrics.allowAgents[1]')).toEqual([expect.stringContaining('invalid glob "x(y"')]);
    expect(at(list, 'emit.metrics.allowAgents[0]')).toEqual([]);
    expect(at(list, 'scorers.refunds.agents["support-["]')).toEqual([expect.stringContaining('invalid agent pattern "support-["')]);
    expect(list, JSON.stringify(list, null, 1)).toHaveLength(6);
  });
});

describe('thresholds', () => {
  it.each([
    [{ type: 'content-similarity', threshold: 1.5 }, 'must be between 0 and 1: scores of type content-similarity run from 0 to 1'],
    [{ type: 'keyword-coverage', threshold: 1.01 }, 'must be between 0 and 1: scores of type keyword-coverage run from 0 to 1'],
    [{ type: 'hallucination', scale: 2, threshold: 2.5 }, 'must be between 0 and 2 (its scale): scores of type hallucination run from 0 to 2'],
    [{ type: 'judge', prompt: 'Good? {{output}}', choices: { good: 5, bad: 1 }, threshold: 6 }, 'must be between 0 and 5: scores of type judge run from 0 to 5'],
  ])('%j is out of range', (entry, message) => {
    expect(at(issues({ scorers: { s: entry } }), 'scorers.s.threshold')).toEqual([message]);
  });

  it.each([
    { type: 'content-similarity', threshold: 1 },
    { type: 'content-similarity', threshold: 0 },
    { type: 'hallucination', scale: 2, threshold: 1.5 },
    { type: 'judge', prompt: 'Good? {{output}}', choices: { good: 5, bad: 1 }, threshold: 3 },
    { type: 'custom', module: './any.mjs', threshold: 40 },
  ])('%j is in range (a custom module has its own range)', (entry) => {
    expect(at(issues({ scorers: { s: entry } }), 'scorers.s.threshold')).toEqual([]);
  });

  it('a negative threshold is out of range whatever the type', () => {
    expect(at(issues({ scorers: { s: { type: 'tone', threshold: -0.1 } } }), 'scorers.s.threshold')).toEqual(["must be >= 0 (and at most the scorer's highest score)"]);
  });
});

describe('a missing config file, in words', () => {
  it('names the file and says it does not exist, with the error code TJ_CONFIG_UNREADABLE', () => {
    const missing = join(dir, 'nope.yaml');
    expect(() => loadConfig(missing, {})).toThrow(`config file ${missing} does not exist`);
    try {
      loadConfig(missing, {}, {}, '$TRACEJUDGE_CONFIG');
    } catch (err) {
      expect((err as TracejudgeError).code).toBe(ErrorCodes.CONFIG_UNREADABLE);
      expect((err as Error).message).toBe(`config file ${missing} (named by $TRACEJUDGE_CONFIG) does not exist`);
    }
    expect(() => loadConfig(dir, {})).toThrow(`config file ${dir} is a directory, not a file (EISDIR)`);
  });
});

describe('checkConfigFile: the whole check of check-config', () => {
  const check = (path: string | undefined, env: Record<string, string> = {}) => checkConfigFile(path, { env, scorers: createScorerRegistry() });

  it('reports scorer option errors, judge requirements, modules and unused overrides together with every other section', async () => {
    file('module-throws.mjs', "throw new Error('boom while loading');\n");
    file('module-no-scorer.mjs', 'export default { hello: 1 };\n');
    const path = file(
      'everything.yaml',
      [
        'assembly: { bogus: 1 }',
        'sampling:',
        '  agents:',
        '    "billing-*": { rate: 1.5, scorers: { nope: 0.5 } }',
        'scorers:',
        '  similarity: { type: content-similarity, ignoreCase: "yes" }',
        '  h: { type: hallucination }',
        '  missing: { type: custom, module: ./not-there.mjs }',
        '  throws: { type: custom, module: ./module-throws.mjs }',
        '  empty: { type: custom, module: ./module-no-scorer.mjs }',
        '',
      ].join('\n'),
    );
    const report = await check(path);
    expect(report.config).toBeUndefined();
    const byPath = Object.fromEntries(report.issues.map((i) => [i.path, i.message]));
    expect(byPath).toMatchObject({
      'assembly.bogus': 'unknown key',
      'sampling.agents["billing-*"].rate': 'must be between 0 and 1',
      'scorers.similarity.ignoreCase': 'Invalid input: expected boolean, received string',
      'scorers.missing.module': `module not found: ./not-there.mjs (${join(dir, 'not-there.mjs')})`,
    });
    expect(byPath['sampling.agents["billing-*"].scorers.nope']).toContain('has no effect: "nope" is not a configured scorer');
    expect(byPath['scorers.h.type']).toMatch(/^type hallucination needs the LLM judge/);
    expect(byPath['scorers.throws.module']).toMatch(/^module failed to load: .*boom while loading/);
    expect(byPath['scorers.empty.module']).toMatch(/^export "default" is not a scorer made with createScorer/);
    expect(report.issues).toHaveLength(8);
  });

  it('reason has no effect on a scorer without a reason step: code scorers without one, and modules without one', async () => {
    // Scorer-shaped objects (what createScorer returns, as far as loading goes), without importing tracejudge.
    const scorer = (id: string, steps: string[]): string =>
      `export default { id: '${id}', description: 'x', run: async () => ({ score: 1 }), getSteps: () => ${JSON.stringify(steps.map((name) => ({ name, type: 'function' })))} };\n`;
    file('module-plain.mjs', scorer('plain', ['generateScore']));
    file('module-reasons.mjs', scorer('why', ['generateScore', 'generateReason']));
    const path = file(
      'reasons.yaml',
      [
        'scorers:',
        '  similarity: { type: content-similarity, reason: always }',
        '  keywords: { type: keyword-coverage, reason: never }',
        '  grounding: { type: grounding, reason: always }',
        '  trajectory: { type: trajectory, reason: always }',
        '  plain: { type: custom, module: ./module-plain.mjs, reason: always }',
        '  why: { type: custom, module: ./module-reasons.mjs, reason: always }',
        '  quiet: { type: content-similarity }',
        '',
      ].join('\n'),
    );
    const report = await check(path);
    expect(report.issues.map((i) => `${i.path}: ${i.message}`).sort()).toEqual(
      [
        'scorers.keywords.reason: has no effect: keyword-coverage scorers give no reason (remove it)',
        'scorers.plain.reason: has no effect: the scorer exported by ./module-plain.mjs has no generateReason step (remove it)',
        'scorers.similarity.reason: has no effect: content-similarity scorers give no reason (remove it)',
      ].sort(),
    );
  });

  it('a valid file gives the config and whether the judge is on; the built-in defaults are valid', async () => {
    const path = file('ok.yaml', 'scorers:\n  h: { type: hallucination }\nsampling: { default: { scorers: { h: 0.5 } } }\n');
    const ok = await check(path, { OPENAI_API_KEY: 'sk-test-not-used' });
    expect(ok.issues).toEqual([]);
    expect(ok.config?.scorers?.h?.type).toBe('hallucination');
    expect(ok.judgeOn).toBe(true);
    const defaults = await check(undefined);
    expect(defaults).toMatchObject({ file: '<defaults>', issues: [], judgeOn: false });
  });

  it('a YAML syntax error is reported alone (nothing else can be read)', async () => {
    const report = await check(file('syntax.yaml', 'assembly: { bogus: 1\n'));
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]?.path).toMatch(/^line \d+, column \d+$/);
  });
});
