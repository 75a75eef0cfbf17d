/** What every scenario receives from the runner. */
import type { Row } from '../lib/results.js';

export interface BenchContext {
  quick: boolean;
  /** Lines for the Notes section of RESULTS.md. */
  notes: string[];
  /** Progress output (stderr), so stdout stays the table. */
  log: (msg: string) => void;
}

export type Scenario = (ctx: BenchContext) => Promise<Row[]>;
