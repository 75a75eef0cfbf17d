/**
 * Running counts per agent and scorer: runs, evaluations, mean score, fails and unscored (error) records.
 * The live ring keeps one since start, `score` prints one at the end, and `demo` draws one in the terminal.
 * Bounded: at most `maxAgents` agent names get their own entry, later ones are counted under `other`.
 */
import type { ScoreRecord } from '../model/score-record.js';

/** Counts of one scorer on one agent. */
export interface ScorerCounts {
  /** Records (scores and error records). */
  evaluations: number;
  /** Records with a score. */
  scored: number;
  sum: number;
  fails: number;
  /** Error records (the evaluation failed; no score). */
  unscored: number;
  /** The newest failing record with its reason, if any failed. */
  lastFail?: { traceId: string; score: number; reason?: string; timestamp: string };
}

/** Counts of one agent. */
export interface AgentCounts {
  runs: number;
  scorers: Map<string, ScorerCounts>;
}

/** The name agents beyond the bound are counted under. */
export const OTHER_AGENT = 'other';

export function emptyScorerCounts(): ScorerCounts {
  return { evaluations: 0, scored: 0, sum: 0, fails: 0, unscored: 0 };
}

/** Add one record to `c`. */
export function countRecord(c: ScorerCounts, r: ScoreRecord): void {
  c.evaluations++;
  if (typeof r.score !== 'number') {
    c.unscored++;
    return;
  }
  c.scored++;
  c.sum += r.score;
  if (r.label === 'fail') {
    c.fails++;
    c.lastFail = { traceId: r.traceId, score: r.score, timestamp: r.timestamp, ...(r.reason !== undefined ? { reason: r.reason } : {}) };
  }
}

/** Mean score, or undefined when nothing was scored. */
export function meanOf(c: Pick<ScorerCounts, 'scored' | 'sum'>): number | undefined {
  return c.scored > 0 ? c.sum / c.scored : undefined;
}

/** Share of scored records that failed, or undefined when nothing was scored. */
export function failRateOf(c: Pick<ScorerCounts, 'scored' | 'fails'>): number | undefined {
  return c.scored > 0 ? c.fails / c.scored : undefined;
}

export class Tally {
  readonly #agents = new Map<string, AgentCounts>();

  constructor(readonly maxAgents = 100) {}

  /** The entry `agentName` is counted under (`other` beyond the bound). */
  #agent(agentName: string): AgentCounts {
    let a = this.#agents.get(agentName);
    if (a) return a;
    const name = this.#agents.size < this.maxAgents ? agentName : OTHER_AGENT;
    a = this.#agents.get(name);
    if (!a) this.#agents.set(name, (a = { runs: 0, scorers: new Map() }));
    return a;
  }

  /** Count one run and its records. */
  addRun(agentName: string, records: readonly ScoreRecord[]): void {
    const a = this.#agent(agentName);
    a.runs++;
    for (const r of records) this.#add(a, r);
  }

  /** Count records alone (no run). */
  addRecords(records: readonly ScoreRecord[]): void {
    for (const r of records) this.#add(this.#agent(r.agentName), r);
  }

  #add(a: AgentCounts, r: ScoreRecord): void {
    let c = a.scorers.get(r.scorer);
    if (!c) a.scorers.set(r.scorer, (c = emptyScorerCounts()));
    countRecord(c, r);
  }

  /** Agents in name order (`other` last). */
  agents(): [string, AgentCounts][] {
    return [...this.#agents].sort(([a], [b]) => (a === OTHER_AGENT ? 1 : b === OTHER_AGENT ? -1 : a.localeCompare(b)));
  }

  get size(): number {
    return this.#agents.size;
  }
}
