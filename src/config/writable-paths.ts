/**
 * The paths `serve` writes to, checked as it would open them: `emit.jsonl.path` (its directory is created
 * when missing) and `sources.otlp.wal.dir` when the write-ahead log is on. Relative paths are taken from
 * the working directory, as `serve` does. Running as root passes every permission check, as the open would.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ConfigIssue } from '../errors.js';

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why a directory cannot be written or created (with its missing parents), or undefined when it can. */
function directoryProblem(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    const st = statOf(at);
    if (st) {
      if (!st.isDirectory()) return `${at} is not a directory`;
      if (!writable(at)) return `directory ${at} is not writable`;
      return undefined;
    }
    const parent = dirname(at);
    if (parent === at) return `${at} does not exist`;
    at = parent;
  }
}

/** Why a file cannot be written (created in its directory, or appended to), or undefined when it can. */
function fileProblem(path: string): string | undefined {
  const st = statOf(path);
  if (st?.isDirectory()) return `${resolve(path)} is a directory`;
  if (st) {
    try {
      accessSync(path, constants.W_OK);
    } catch {
      return `${resolve(path)} is not writable`;
    }
  }
  return directoryProblem(dirname(path));
}

export function writablePathIssues(doc: Obj): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const jsonl = isRecord(doc.emit) && isRecord(doc.emit.jsonl) ? doc.emit.jsonl : undefined;
  if (jsonl && typeof jsonl.path === 'string' && jsonl.path !== '' && jsonl.enabled !== false) {
    const problem = fileProblem(jsonl.path);
    if (problem) issues.push({ path: 'emit.jsonl.path', message: `cannot be written: ${problem}` });
  }
  const otlp = isRecord(doc.sources) && isRecord(doc.sources.otlp) ? doc.sources.otlp : undefined;
  const wal = otlp && isRecord(otlp.wal) ? otlp.wal : undefined;
  if (wal && wal.enabled === true) {
    const dir = typeof wal.dir === 'string' && wal.dir !== '' ? wal.dir : './tracejudge-wal';
    const problem = directoryProblem(dir);
    if (problem) issues.push({ path: 'sources.otlp.wal.dir', message: `cannot be written: ${problem}` });
  }
  return issues;
}
