/**
 * Human labels for `tracejudge calibrate` (docs/calibration.md): JSON lines, one object per labeled run,
 * keyed by trace id (and optionally span id and agent name), or span attributes on the agent span
 * (`tracejudge.label`, `tracejudge.label.<scorer>`). Every problem names the file, the line and the field.
 */
import { readFileSync } from 'node:fs';
import { ErrorCodes, TracejudgeError } from '../errors.js';
import type { Attributes } from '../model/span.js';

export type Label = 'pass' | 'fail';

/** One labeled run. */
export interface LabelRow {
  traceId: string;
  /** The agent run span; absent = every run of the trace. */
  spanId?: string;
  /** The agent name; absent = any agent. */
  agent?: string;
  /** The verdict a human gave the whole run. */
  label: Label;
  /** Per scorer (by configured name), when a human judged that scorer's question separately. */
  scorers?: Record<string, Label>;
  /** A part of the set, e.g. `tune` / `holdout`: metrics are also reported per part. */
  split?: string;
  /** Where it came from: `FILE:LINE` or `attribute`. */
  origin: string;
}

const ALLOWED = new Set(['traceId', 'spanId', 'agent', 'label', 'scorers', 'split', 'scenario', 'category', 'note']);

function labelOf(v: unknown): Label | undefined {
  if (v === true) return 'pass';
  if (v === false) return 'fail';
  if (typeof v !== 'string') return undefined;
  const t = v.trim().toLowerCase();
  return t === 'pass' || t === 'fail' ? t : undefined;
}

function bad(where: string, message: string): TracejudgeError {
  return new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${where}: ${message}`);
}

/**
 * Parse a labels file. Blank lines and lines starting with `#` are skipped; `scenario`, `category` and
 * `note` are kept for people and ignored.
 *
 * @example
 * ```ts
 * parseLabels('{"traceId":"5fe9…","label":"fail","scorers":{"grounding":"fail"}}\n', 'labels.jsonl');
 * ```
 */
export function parseLabels(text: string, file: string): LabelRow[] {
  const rows: LabelRow[] = [];
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const t = line.trim();
    if (t === '' || t.startsWith('#')) return;
    let o: unknown;
    try {
      o = JSON.parse(t);
    } catch (err) {
      throw bad(where, `invalid JSON (${(err as Error).message})`);
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw bad(where, 'expected a JSON object');
    const obj = o as Record<string, unknown>;
    for (const k of Object.keys(obj)) if (!ALLOWED.has(k)) throw bad(`${where}: ${k}`, `unknown field (known: ${[...ALLOWED].join(', ')})`);
    if (typeof obj.traceId !== 'string' || !/^[0-9a-f]{32}$/i.test(obj.traceId)) throw bad(`${where}: traceId`, 'must be 32 hex characters');
    if (obj.spanId !== undefined && (typeof obj.spanId !== 'string' || !/^[0-9a-f]{16}$/i.test(obj.spanId))) throw bad(`${where}: spanId`, 'must be 16 hex characters');
    if (obj.agent !== undefined && (typeof obj.agent !== 'string' || obj.agent === '')) throw bad(`${where}: agent`, 'must be a non-empty string');
    const label = labelOf(obj.label);
    if (!label) throw bad(`${where}: label`, 'must be "pass" or "fail"');
    const row: LabelRow = { traceId: obj.traceId.toLowerCase(), label, origin: where };
    if (typeof obj.spanId === 'string') row.spanId = obj.spanId.toLowerCase();
    if (typeof obj.agent === 'string') row.agent = obj.agent;
    if (obj.split !== undefined) {
      if (typeof obj.split !== 'string' || obj.split === '') throw bad(`${where}: split`, 'must be a non-empty string');
      row.split = obj.split;
    }
    if (obj.scorers !== undefined) {
      if (obj.scorers === null || typeof obj.scorers !== 'object' || Array.isArray(obj.scorers)) throw bad(`${where}: scorers`, 'must be an object of scorer name → "pass" | "fail"');
      const scorers: Record<string, Label> = {};
      for (const [name, v] of Object.entries(obj.scorers)) {
        const l = labelOf(v);
        if (!l) throw bad(`${where}: scorers.${name}`, 'must be "pass" or "fail"');
        scorers[name] = l;
      }
      row.scorers = scorers;
    }
    rows.push(row);
  });
  return rows;
}

/** Read and parse labels files. */
export function readLabels(files: readonly string[]): LabelRow[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${file}: cannot read labels (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return parseLabels(text, file);
  });
}

/**
 * Labels carried on the agent span: `<key>` for the run, `<key>.<scorer>` per scorer, and `<key>.split`.
 * Undefined when the span has no run label.
 */
export function labelFromAttributes(attributes: Attributes, key: string): Omit<LabelRow, 'traceId' | 'origin'> | undefined {
  const label = labelOf(attributes[key]);
  if (!label) return undefined;
  const out: Omit<LabelRow, 'traceId' | 'origin'> = { label };
  const prefix = `${key}.`;
  for (const [k, v] of Object.entries(attributes)) {
    if (!k.startsWith(prefix)) continue;
    const name = k.slice(prefix.length);
    if (name === 'split' && typeof v === 'string' && v !== '') out.split = v;
    else {
      const l = labelOf(v);
      if (l) (out.scorers ??= {})[name] = l;
    }
  }
  return out;
}
