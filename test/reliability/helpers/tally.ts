/** Counts outcomes per channel and payload family, and keeps the first few unexpected ones for the failure message. */
export class Tally {
  readonly counts: Record<string, Record<string, Record<string, number>>> = {};
  readonly unexpected: string[] = [];
  unexpectedCount = 0;
  total = 0;

  add(channel: string, family: string, outcome: string): void {
    this.total++;
    const byFamily = (this.counts[channel] ??= {});
    const byOutcome = (byFamily[family] ??= {});
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
  }

  bad(channel: string, family: string, what: string): void {
    this.add(channel, family, 'UNEXPECTED');
    this.unexpectedCount++;
    if (this.unexpected.length < 20) this.unexpected.push(`${channel}/${family}: ${what}`);
  }

  /** Outcome totals of one channel (all families). */
  outcomes(channel: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const byOutcome of Object.values(this.counts[channel] ?? {})) for (const [o, n] of Object.entries(byOutcome)) out[o] = (out[o] ?? 0) + n;
    return out;
  }

  channelTotal(channel: string): number {
    return Object.values(this.outcomes(channel)).reduce((a, b) => a + b, 0);
  }
}

/** Run `task(i)` for i in [0, n) with at most `concurrency` at once. */
export async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}
