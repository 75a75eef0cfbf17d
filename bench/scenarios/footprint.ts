/**
 * Footprint and offline speed, measured on the built CLI (`npm run build` first) in child processes, each
 * against a baseline measured in the same run:
 * - idle RSS of a fresh `tracejudge serve` with the embedded default scorers, after warm-up, against an
 *   idle bare `node`;
 * - offline `extract` and `score --all` of a large file of real-library spans (the recorded fixtures of
 *   test/fixtures/traces, replicated with new trace ids to ≥ 20,000 spans, one OTLP/JSON request per line)
 *   against a plain `JSON.parse` of every line of the same file. All three are whole processes (node
 *   start-up included), best of the rounds.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { replicateJson } from '../generator/replicate.js';
import type { Row } from '../lib/results.js';
import type { BenchContext } from './context.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'traces');

/** VmRSS of a process, in MiB (Linux /proc). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `args` under node, waits `waitMs`, reads its RSS, stops it (by pid). */
async function idleRss(args: readonly string[], waitMs: number): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'warn' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const early = await Promise.race([sleep(waitMs).then(() => undefined), exited]);
  if (early !== undefined || child.pid === undefined) throw new Error(`${args.join(' ')} exited early (${String(early)}): ${stderr.slice(0, 300)}`);
  const rss = rssMiB(child.pid);
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!stopped) child.kill('SIGKILL');
  return rss;
}

/** Wall time of one child process run to completion (stdout discarded); rejects on a non-zero exit. */
function timeProcess(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'warn' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${args.join(' ')} exited ${String(code)}: ${stderr.slice(0, 300)}`))));
  });
}

/** The real-library trace fixtures, compacted, replicated until the file holds at least `minSpans` spans. */
function realLibraryFile(path: string, minSpans: number): { spans: number; requests: number; bytes: number; first: Buffer } {
  const bodies: Array<{ body: Buffer; traceIds: string[]; spans: number }> = [];
  for (const f of readdirSync(FIXTURES).sort()) {
    if (!f.endsWith('.json') || f.endsWith('.logs.json') || f.startsWith('handwritten')) continue;
    const doc = JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ traceId: string }> }> }> };
    const spans = (doc.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []));
    if (spans.length === 0) continue;
    bodies.push({ body: Buffer.from(JSON.stringify(doc)), traceIds: [...new Set(spans.map((s) => s.traceId))], spans: spans.length });
  }
  const lines: Buffer[] = [];
  let spans = 0;
  for (let r = 1; spans < minSpans; r++) {
    for (const b of bodies) {
      lines.push(replicateJson(b.body, b.traceIds, r), Buffer.from('\n'));
      spans += b.spans;
    }
  }
  const data = Buffer.concat(lines);
  writeFileSync(path, data);
  return { spans, requests: lines.length / 2, bytes: data.length, first: Buffer.concat(lines.slice(0, 2)) };
}

export async function footprintScenario(ctx: BenchContext): Promise<Row[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  if (process.platform !== 'linux') throw new Error('the footprint scenario reads RSS from /proc (Linux only)');
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tracejudge-footprint-'));
  try {
    // Idle RSS: the embedded default scorers; the listeners on port 0 so the run never collides with a
    // service on the default ports.
    const config = join(dir, 'serve.yaml');
    writeFileSync(config, 'sources:\n  otlp:\n    http: { host: 127.0.0.1, port: 0 }\n    grpc: { host: 127.0.0.1, port: 0 }\nemit:\n  prometheus: { host: 127.0.0.1, port: 0 }\n');
    const warmMs = ctx.quick ? 8_000 : 12_000;
    const bare = await idleRss(['-e', 'setInterval(() => {}, 1 << 30)'], 2_000);
    const serve = await idleRss([CLI, 'serve', '-c', config], warmMs);
    ctx.log(`footprint: idle RSS serve ${serve.toFixed(1)} MiB, bare node ${bare.toFixed(1)} MiB`);
    rows.push({
      scenario: 'footprint (fresh process)',
      metric: 'idle RSS, embedded default (serve, after warm-up)',
      value: serve,
      unit: 'MiB',
      baseline: bare,
      baselineName: 'bare node -e',
      ratio: serve / bare,
      target: 'value ≤ 120 MiB',
      met: serve <= 120,
    });

    // Offline extract / score against JSON.parse of the same file.
    const file = join(dir, 'real-library.jsonl');
    const f = realLibraryFile(file, 24_000);
    const parseScript = `const fs = require('node:fs'); let n = 0; for (const l of fs.readFileSync(${JSON.stringify(file)}, 'utf8').split('\\n')) if (l) n += JSON.parse(l).resourceSpans.length; if (!n) process.exit(1);`;
    const rounds = ctx.quick ? 2 : 3;
    const best = async (args: readonly string[]): Promise<number> => {
      let min = Infinity;
      for (let i = 0; i < rounds; i++) min = Math.min(min, await timeProcess(args));
      return min;
    };
    const parseMs = await best(['-e', parseScript]);
    const extractMs = await best([CLI, 'extract', file]);
    const scoreMs = await best([CLI, 'score', '--all', file]);
    // Start-up, to split each row's time: the same commands on the file's first request alone, and a bare node.
    const first = join(dir, 'first-request.jsonl');
    writeFileSync(first, f.first);
    const bareMs = await best(['-e', '0']);
    const extractStartMs = await best([CLI, 'extract', first]);
    const scoreStartMs = await best([CLI, 'score', '--all', first]);
    ctx.log(`footprint: ${f.spans} spans; JSON.parse ${parseMs.toFixed(0)} ms, extract ${extractMs.toFixed(0)} ms, score --all ${scoreMs.toFixed(0)} ms; start-up: node ${bareMs.toFixed(0)} ms, extract ${extractStartMs.toFixed(0)} ms, score --all ${scoreStartMs.toFixed(0)} ms`);
    const scenario = `offline (${f.spans.toLocaleString('en-US')} real-library spans, ${(f.bytes / 2 ** 20).toFixed(1)} MiB JSONL)`;
    const perS = (ms: number): number => f.spans / (ms / 1000);
    rows.push(
      {
        scenario,
        metric: 'tracejudge extract: spans/s',
        value: perS(extractMs),
        unit: 'spans/s',
        baseline: perS(parseMs),
        baselineName: 'JSON.parse of the same file',
        ratio: parseMs / extractMs,
        target: 'ratio ≥ 0.5',
        met: parseMs / extractMs >= 0.5,
      },
      {
        scenario,
        metric: 'tracejudge score --all (embedded default): spans/s',
        value: perS(scoreMs),
        unit: 'spans/s',
        baseline: perS(parseMs),
        baselineName: 'JSON.parse of the same file',
        ratio: parseMs / scoreMs,
        target: 'ratio ≥ 0.25',
        met: parseMs / scoreMs >= 0.25,
      },
    );
    // What each row would read if tracejudge started as fast as a bare node: its own start-up is no reason
    // for a ratio below target when this ceiling is below it too.
    for (const [command, ms, startMs] of [
      ['extract', extractMs, extractStartMs],
      ['score --all', scoreMs, scoreStartMs],
    ] as const) {
      rows.push({
        scenario,
        metric: `tracejudge ${command}: start-up (the file's first request alone)`,
        value: startMs,
        unit: 'ms',
        baseline: bareMs,
        baselineName: 'bare node -e 0',
      });
      rows.push({
        scenario,
        metric: `tracejudge ${command}: ratio if it started as fast as a bare node`,
        value: parseMs / (ms - (startMs - bareMs)),
        unit: '×',
      });
    }
    ctx.notes.push(
      `Offline start-up: each command on a file of the first request alone (best of ${rounds}), against \`node -e 0\`; the "if it started as fast" rows take the difference out of the command's time on the whole file (JSON.parse time ÷ (command − (its start-up − bare node))).`,
      `Footprint: the built CLI (dist/, npm run build) in fresh child processes. Idle RSS is VmRSS of \`tracejudge serve\` with the embedded default scorers (listeners on port 0) ${warmMs / 1000} s after start, against an idle \`node -e\` read the same way. Offline: ${f.requests} OTLP/JSON requests (the real-library fixtures of test/fixtures/traces, replicated with new trace ids) in one JSONL file; each row is the wall time of the whole process (node start-up included; best of ${rounds}), the baseline a \`node -e\` that reads the file and JSON.parses every line.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
