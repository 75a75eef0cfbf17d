/** Loads a trace fixture (and its `.logs.json` companion) and extracts it, for the fixture tests and the generator. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRun } from '../../src/extract/agent-run.js';
import { extractTraces, logsFromRequest, type ExtractOptions, type TraceExtraction } from '../../src/extract/extract.js';

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

/** Extracts one fixture with its log records joined. */
export function extractFixture(name: string, options: ExtractOptions = {}): TraceExtraction[] {
  const logsFile = join(TRACES_DIR, `${name}.logs.json`);
  const logs = existsSync(logsFile) ? logsFromRequest(readFileSync(logsFile, 'utf8')) : [];
  return extractTraces(readFileSync(join(TRACES_DIR, `${name}.json`), 'utf8'), { ...options, logs });
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
