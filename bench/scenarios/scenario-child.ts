/**
 * Runs one scenario in a process of its own (see isolated.ts): `scenario-child.ts MODULE EXPORT QUICK`
 * imports EXPORT from MODULE, runs it with a context of its own, and sends its rows and notes to the parent
 * over IPC. Progress lines go to stderr, as in the parent.
 */
import { pathToFileURL } from 'node:url';
import type { Row } from '../lib/results.js';
import type { BenchContext, Scenario } from './context.js';

/** What the child sends its parent. */
export interface ScenarioChildResult {
  rows: Row[];
  notes: string[];
}

const [modulePath, exportName, quick] = process.argv.slice(2);
if (!modulePath || !exportName || process.send === undefined) throw new Error('usage: fork scenario-child.ts MODULE EXPORT 0|1 with an IPC channel');
const scenario = (await import(pathToFileURL(modulePath).href) as Record<string, unknown>)[exportName];
if (typeof scenario !== 'function') throw new Error(`${modulePath} exports no scenario ${exportName}`);
const ctx: BenchContext = { quick: quick === '1', notes: [], log: (m) => process.stderr.write(`[bench] ${m}\n`) };
const rows = await (scenario as Scenario)(ctx);
const result: ScenarioChildResult = { rows, notes: ctx.notes };
process.send(result, () => process.exit(0));
