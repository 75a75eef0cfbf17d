/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by file, top N.
 *
 *     node --cpu-prof --cpu-prof-dir=.cache/prof --import tsx bench/run.ts --quick --only pipeline --no-write
 *     node --import tsx bench/profile-summary.ts .cache/prof/<file>.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [path, topArg] = process.argv.slice(2);
if (!path) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
const top = Number(topArg ?? '25');
const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url: string): string => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'nm:').replace(/^.*\/work\/main\//, '');
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const f = byId.get(id)?.callFrame;
  if (!f) continue;
  const file = shortUrl(f.url) || '(native)';
  const fn = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  byFile.set(file, (byFile.get(file) ?? 0) + us);
}
const print = (title: string, m: Map<string, number>): void => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
};
// Inclusive ("total") time: each sample counts once for every distinct function on its stack.
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const fnName = (n: ProfileNode): string => `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url) || '(native)'}:${n.callFrame.lineNumber + 1}`;
const totalFn = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
    const n = byId.get(cur);
    if (!n) break;
    const name = fnName(n);
    if (seen.has(name)) continue;
    seen.add(name);
    totalFn.set(name, (totalFn.get(name) ?? 0) + us);
  }
}
print('self time by function', byFn);
if (process.env.PROFILE_TOTAL) print('total (inclusive) time by function', totalFn);
print('self time by file', byFile);
