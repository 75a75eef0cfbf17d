#!/usr/bin/env node
/**
 * Reads one stage of a Dockerfile as JSON, for scripts/image/verify.sh: the instructions in order (continuation
 * lines joined, comments dropped), with the exec-form arrays of ENTRYPOINT, CMD and HEALTHCHECK CMD parsed, and
 * COPY split into its --from stage, sources and destination.
 *   node scripts/image/dockerfile.mjs Dockerfile runtime
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';

const [file, stageName] = process.argv.slice(2);
if (!file || !stageName) {
  process.stderr.write('usage: dockerfile.mjs DOCKERFILE STAGE\n');
  process.exit(2);
}

/** Instructions of the whole file: { op, args, line }. */
function instructions(text) {
  const out = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (buf === '' && (/^\s*#/.test(line) || line.trim() === '')) return;
    if (buf === '') start = i + 1;
    if (/\\\s*$/.test(line)) {
      buf += `${line.replace(/\\\s*$/, '')} `;
      return;
    }
    buf += line;
    const m = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(buf);
    if (m) out.push({ op: m[1].toUpperCase(), args: m[2].trim(), line: start });
    buf = '';
  });
  return out;
}

/** The exec form `["a", "b"]` as an array; a shell form string is refused (verify.sh needs exec form). */
function execForm(args, what) {
  try {
    const v = JSON.parse(args);
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  } catch {
    // below
  }
  throw new Error(`${what} is not in exec form (a JSON array): ${args}`);
}

const all = instructions(readFileSync(file, 'utf8'));
const steps = [];
let inStage = false;
for (const ins of all) {
  if (ins.op === 'FROM') {
    inStage = new RegExp(`\\s+AS\\s+${stageName}$`, 'i').test(ins.args);
    continue;
  }
  if (!inStage) continue;
  if (ins.op === 'COPY') {
    const words = ins.args.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const paths = words.filter((w) => !w.startsWith('--'));
    const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
    steps.push({ op: 'COPY', line: ins.line, from: from ?? null, sources: paths.slice(0, -1), dest: paths[paths.length - 1] });
  } else if (ins.op === 'ENTRYPOINT' || ins.op === 'CMD') {
    steps.push({ op: ins.op, line: ins.line, exec: execForm(ins.args, ins.op) });
  } else if (ins.op === 'HEALTHCHECK') {
    const m = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+([\s\S]*)$/.exec(ins.args);
    if (!m) throw new Error(`HEALTHCHECK without CMD: ${ins.args}`);
    steps.push({ op: 'HEALTHCHECK', line: ins.line, options: m[1].trim().split(/\s+/).filter(Boolean), exec: execForm(m[2], 'HEALTHCHECK CMD') });
  } else if (ins.op === 'ENV') {
    const env = {};
    for (const m of ins.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
    steps.push({ op: 'ENV', line: ins.line, env });
  } else {
    steps.push({ op: ins.op, line: ins.line, args: ins.args });
  }
}
if (steps.length === 0) {
  process.stderr.write(`${file}: no stage named ${stageName}\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(steps, null, 1)}\n`);
