/** Loads a trace fixture (and its `.logs.json` companion) and extracts it, for the fixture tests and the generator. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRun } from '../../src/model/agent-run.js';
import { extractTraces, logsFromRequest } from '../../src/api/extract.js';
import type { ExtractOptions, TraceExtraction } from '../../src/extract/extract.js';

const here = dirname(fileURLToPath(import.meta.url));
export const TRACES_DIR = join(here, '..', 'fixtures', 'traces');
export const EXPECTED_DIR = join(here, '..', 'fixtures', 'expected');

/** Fixture names (file name without `.json`), excluding `.logs.json` companions. */
export function fixtureNames(): string[] {
  return readdirSync(TRACES_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.logs.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The user mapping the hand-written in-house fixture is read with (what a user would put in `extract.mapping`). */
export const IN_HOUSE_MAPPING: ExtractOptions = {
  mapping: [
    { name: 'agent:*', role: 'agent', agentName: 'app.agent', input: 'app.request', output: { attribute: 'app.response', path: '$.answer' }, system: { attribute: 'app.request', path: '$.system' } },
    { name: 'llm:*', role: 'llm', model: 'app.model', inputTokens: { attribute: 'app.tokens', path: '$.in' }, outputTokens: { attribute: 'app.tokens', path: '$.out' } },
    { name: 'tool:*', role: 'tool', toolName: { attribute: '$name' }, toolArgs: 'app.tool.args', toolResult: 'app.tool.output' },
  ],
};

/** Options per fixture: the mapping fixtures need their mapping. */
function fixtureOptions(name: string): ExtractOptions {
  return name.startsWith('handwritten-mapping-') ? IN_HOUSE_MAPPING : {};
}

/** Extracts one fixture with its log records joined. */
export function extractFixture(name: string, options: ExtractOptions = {}): TraceExtraction[] {
  const logsFile = join(TRACES_DIR, `${name}.logs.json`);
  const logs = existsSync(logsFile) ? logsFromRequest(readFileSync(logsFile, 'utf8')) : [];
  return extractTraces(readFileSync(join(TRACES_DIR, `${name}.json`), 'utf8'), { ...fixtureOptions(name), ...options, logs });
}

export function runsOf(name: string, options: ExtractOptions = {}): AgentRun[] {
  return extractFixture(name, options).flatMap((t) => t.contexts.map((c) => c.run));
}

export interface ExpectedFile {
  fixture: string;
  runs: AgentRun[];
}

export function expectedPath(name: string): string {
  return join(EXPECTED_DIR, `${name}.json`);
}
