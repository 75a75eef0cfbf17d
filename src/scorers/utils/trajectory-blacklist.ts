/** `checkTrajectoryBlacklist` (docs/scorers.md): forbidden tools and forbidden contiguous sequences. */
import type { Trajectory } from './trajectory-types.js';

export interface BlacklistOptions {
  blacklistedTools?: string[];
  /** Each a contiguous run of top-level step names, e.g. `[['refund', 'answer']]`. Empty sequences are ignored. */
  blacklistedSequences?: string[][];
}

export interface BlacklistResult {
  /** 0 on any violation, else 1. */
  score: number;
  /** Forbidden tool names found, each once, in first-use order. */
  violatedTools: string[];
  /** Forbidden sequences found, each once. */
  violatedSequences: string[][];
}

/**
 * Check a trajectory's top-level steps against forbidden tools and sequences.
 *
 * @example
 * ```ts
 * const t = { steps: [{ name: 'search', stepType: 'tool_call' as const }, { name: 'deleteAll', stepType: 'tool_call' as const }] };
 * checkTrajectoryBlacklist(t, { blacklistedTools: ['deleteAll'] }); // { score: 0, violatedTools: ['deleteAll'], violatedSequences: [] }
 * ```
 */
export function checkTrajectoryBlacklist(trajectory: Trajectory, options: BlacklistOptions = {}): BlacklistResult {
  const names = trajectory.steps.map((s) => s.name);
  const forbidden = new Set(options.blacklistedTools ?? []);
  const violatedTools: string[] = [];
  for (const n of names) if (forbidden.has(n) && !violatedTools.includes(n)) violatedTools.push(n);
  const violatedSequences: string[][] = [];
  for (const seq of options.blacklistedSequences ?? []) {
    if (seq.length === 0 || seq.length > names.length) continue;
    for (let i = 0; i + seq.length <= names.length; i++) {
      if (seq.every((s, k) => names[i + k] === s)) {
        violatedSequences.push(seq);
        break;
      }
    }
  }
  return { score: violatedTools.length > 0 || violatedSequences.length > 0 ? 0 : 1, violatedTools, violatedSequences };
}
