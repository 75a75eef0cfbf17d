/** The unified trajectory scorer's reason text (docs/scorers.md). */
import type { LevelResult } from './evaluate.js';

function list(names: readonly string[]): string {
  return [...new Set(names)].join(', ');
}

function blacklistLine(r: LevelResult, where: string): string | undefined {
  const b = r.blacklist;
  if (!b || b.score !== 0) return undefined;
  const parts: string[] = [];
  if (b.violatedTools.length > 0) parts.push(`forbidden tools used: ${b.violatedTools.join(', ')}`);
  if (b.violatedSequences.length > 0) parts.push(`forbidden sequences: ${b.violatedSequences.map((s) => s.join(' → ')).join(', ')}`);
  return `Blacklist violation${where}: ${parts.join('; ')}.`;
}

/**
 * Render the reason: `Score: X`, then the blacklist violation, or one line per active dimension.
 *
 * @example
 * ```ts
 * trajectoryReason(result); // "Score: 1\nAccuracy (1): 2/2 expected steps matched."
 * ```
 */
export function trajectoryReason(r: LevelResult): string {
  const lines = [`Score: ${r.score}`];
  const top = blacklistLine(r, '');
  if (top) return [...lines, top].join('\n');
  for (const n of r.nested) {
    const line = blacklistLine(n, ` in ${n.name ?? 'nested step'}`);
    if (line) return [...lines, line].join('\n');
  }
  const a = r.accuracy;
  if (a) {
    const parts = [`Accuracy (${a.score}): ${a.matchedSteps}/${a.totalExpectedSteps} expected steps matched.`];
    if (a.missingSteps.length > 0) parts.push(`missing: ${list(a.missingSteps)}.`);
    if (a.extraSteps.length > 0) parts.push(`extra: ${list(a.extraSteps)}.`);
    if (a.outOfOrderSteps.length > 0) parts.push(`out of order: ${list(a.outOfOrderSteps)}.`);
    lines.push(parts.join(' '));
  }
  const e = r.efficiency;
  if (e) {
    const issues: string[] = [];
    if (e.overStepBudget) issues.push(`over step budget (${e.totalSteps} steps)`);
    if (e.overTokenBudget) issues.push(`over token budget (${e.totalTokens} tokens)`);
    if (e.overDurationBudget) issues.push(`over duration budget (${e.totalDurationMs ?? 0} ms)`);
    if (e.redundantCalls.length > 0) issues.push(`redundant calls: ${list(e.redundantCalls.map((c) => c.name))}`);
    lines.push(`Efficiency (${e.score}): ${issues.length === 0 ? 'all budgets met, no redundant calls' : issues.join('; ')}.`);
  }
  const t = r.toolFailures;
  if (t.patterns.length > 0) {
    const excess = t.excessiveRetryTools.length > 0 ? ` excessive retries: ${list(t.excessiveRetryTools)}.` : '';
    lines.push(`Tool failures (${t.score}): ${t.totalRetries} total retries.${excess}`);
  }
  if (r.nested.length > 0) lines.push(`Nested scores: ${r.nested.map((n) => `${n.name ?? '?'}: ${n.score}`).join(', ')}`);
  return lines.join('\n');
}
