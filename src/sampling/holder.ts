/**
 * Holds the active policy for hot reload. A swap is one reference assignment, so every decision sees
 * either the old or the new policy, never a mix. Callers should read `current()` once per run and use
 * that policy for all of the run's scorers, so a reload mid-run neither loses nor double-scores it.
 */
import type { SamplingPolicy } from './policy.js';

export class PolicyHolder {
  private policy: SamplingPolicy;
  private generation = 0;

  constructor(initial: SamplingPolicy) {
    this.policy = initial;
  }

  /** The active policy. */
  current(): SamplingPolicy {
    return this.policy;
  }

  /** How many swaps have happened (0 at start). */
  get version(): number {
    return this.generation;
  }

  /** Install `next` atomically; returns the policy it replaced. */
  swap(next: SamplingPolicy): SamplingPolicy {
    const prev = this.policy;
    this.policy = next;
    this.generation++;
    return prev;
  }
}
