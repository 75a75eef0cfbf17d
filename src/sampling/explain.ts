/**
 * `check-config --explain-sampling AGENT`: the effective rate, rules and limits per scorer for one agent,
 * as text lines, each naming the config path it came from.
 */
import type { Config } from '../config/schema.js';
import { compileSampling } from './compile.js';
import { describeLimit } from './rate-limit.js';
import type { ScorerKind } from './types.js';

function scorerNames(config: Config, entryScorers: readonly string[]): string[] {
  const names = new Set<string>(Object.keys(config.scorers ?? {}));
  for (const n of Object.keys(config.sampling?.default?.scorers ?? {})) names.add(n);
  for (const n of entryScorers) names.add(n);
  return [...names];
}

/**
 * Explain sampling for `agentName`. `scorerKinds` gives each scorer's kind (from the scorer registry);
 * a scorer missing from it is shown as a judge scorer, the conservative assumption.
 */
export function explainSampling(config: Config, agentName: string, scorerKinds: Readonly<Record<string, ScorerKind>> = {}): string[] {
  const compiled = compileSampling(config.sampling);
  const entry = compiled.matchAgent(agentName);
  const lines: string[] = [];
  lines.push(`agent "${agentName}"`);
  if (!config.sampling) lines.push('  sampling: not configured; built-in rates: code scorers 1, judge scorers 0.1');
  lines.push(
    entry
      ? `  matches sampling.agents[${JSON.stringify(entry.key)}] (${entry.glob ? 'glob' : 'exact name'})`
      : '  matches no sampling.agents entry; default rates apply',
  );
  lines.push(
    compiled.respectUpstream
      ? '  upstream: runs whose agent span is flagged not sampled are skipped (respectUpstream: true)'
      : '  upstream: sampled flag ignored (respectUpstream: false)',
  );
  const rules = [...(entry?.rules ?? []), ...compiled.globalRules];
  if (rules.length === 0) lines.push('  rules: none');
  else {
    lines.push('  rules, in order (the first decisive rule wins):');
    rules.forEach((r, i) => lines.push(`    ${i + 1}. ${r.describe()} [${r.path}]`));
  }
  const names = scorerNames(config, Object.keys(entry?.config.scorers ?? {}));
  const targets: { name: string; kind: ScorerKind; label: string }[] =
    names.length > 0
      ? names.map((name) => {
          const known = scorerKinds[name];
          return { name, kind: known ?? 'judge', label: `${name} (${known ?? 'judge, assumed'})` };
        })
      : [
          { name: '', kind: 'code', label: 'any code scorer' },
          { name: '', kind: 'judge', label: 'any judge scorer' },
        ];
  lines.push('  scorers:');
  for (const t of targets) {
    const { rate, source } = compiled.rate(entry, t.name, t.kind);
    const limits = compiled.limits(entry, t.name).map((l) => `${describeLimit(l.limit)} [${l.path}]`);
    lines.push(`    ${t.label}: rate ${rate} [${source}]${limits.length > 0 ? `; rate limit ${limits.join(', ')}` : ''}`);
  }
  return lines;
}
