/**
 * Loads a config file: YAML → `${VAR}` / `${VAR:-default}` expansion → one zod parse → deep freeze.
 * Every problem is reported with its key path; none is silently dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError, ErrorCodes, TracejudgeError, type ConfigIssue } from '../errors.js';
import { formatPath } from './path.js';
import { configSchema, type Config } from './schema.js';

export type Env = Readonly<Record<string, string | undefined>>;

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}$/;

/** Expand placeholders in every string of a parsed YAML tree. A value that is one placeholder keeps its YAML type. */
export function expandEnv(value: unknown, env: Env): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) {
      const name = whole[1] as string;
      const v = env[name];
      const got = v !== undefined && v !== '' ? v : whole[2];
      if (got === undefined || got === '') return undefined;
      return coerceScalar(got);
    }
    return value.replace(PLACEHOLDER, (_m, name: string, def: string | undefined) => {
      const v = env[name];
      return v !== undefined && v !== '' ? v : (def ?? '');
    });
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const e = expandEnv(v, env);
      if (e !== undefined) out[k] = e;
    }
    return out;
  }
  return value;
}

function coerceScalar(s: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  if (s === 'true') return true;
  if (s === 'false') return false;
  return s;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function zodIssues(error: z.ZodError): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: formatPath([...issue.path, key]), message: 'unknown key' });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      out.push({ path: formatPath(issue.path), message: issue.message });
    } else {
      out.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return out;
}

/** Checks the entries of the `scorers` section against their types (the scorer registry does). */
export interface ScorerChecker {
  check(section: Readonly<Record<string, unknown>> | undefined): ConfigIssue[];
}

export interface ParseOptions {
  /** Checks scorer types and options; without it only the common keys of each entry are checked. */
  scorers?: ScorerChecker;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Budget rules that name scorers which are not configured. Only an explicit `scorers:` section is checked
 * (without it the built-in set applies, whose names the service decides).
 */
function budgetIssues(raw: Record<string, unknown>): ConfigIssue[] {
  const scorers = raw.scorers;
  const economics = raw.economics;
  if (!isRecord(scorers) || !isRecord(economics) || !Array.isArray(economics.budgets)) return [];
  const issues: ConfigIssue[] = [];
  economics.budgets.forEach((rule: unknown, i) => {
    if (!isRecord(rule)) return;
    if (typeof rule.fallback === 'string' && rule.fallback !== 'skip' && !(rule.fallback in scorers)) {
      issues.push({ path: `economics.budgets[${i}].fallback`, message: `"${rule.fallback}" is not a configured scorer (use skip or a name under scorers)` });
    }
    if (typeof rule.scorer === 'string' && !(rule.scorer in scorers)) {
      issues.push({ path: `economics.budgets[${i}].scorer`, message: `"${rule.scorer}" is not a configured scorer` });
    }
  });
  return issues;
}

/**
 * Validate an already-parsed object in one pass: the schema, the scorer entries against their types and
 * the cross-section references are all checked whatever else is wrong, and every issue is reported.
 * Throws `ConfigError` listing them; returns the frozen config.
 */
export function parseConfig(raw: unknown, file = '<config>', env: Env = process.env, options: ParseOptions = {}): Config {
  const expanded = expandEnv(raw ?? {}, env);
  const result = configSchema.safeParse(expanded);
  const issues: ConfigIssue[] = result.success ? [] : zodIssues(result.error);
  if (isRecord(expanded)) {
    if (options.scorers && isRecord(expanded.scorers)) issues.push(...options.scorers.check(expanded.scorers));
    issues.push(...budgetIssues(expanded));
  }
  if (issues.length > 0 || !result.success) throw new ConfigError(file, issues);
  return deepFreeze(result.data);
}

/** Parse YAML text; YAML syntax errors are reported with line and column. */
export function parseConfigText(text: string, file = '<config>', env: Env = process.env, options: ParseOptions = {}): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { path: `line ${pos.line}, column ${pos.col}`, message: e.message.split('\n')[0] ?? e.message };
      }),
    );
  }
  return parseConfig(doc.toJS({ maxAliasCount: 100 }) as unknown, file, env, options);
}

/** Which file to read: `-c`, else `TRACEJUDGE_CONFIG`, else `./tracejudge.yaml` if present, else none. */
export function resolveConfigPath(explicit: string | undefined, env: Env = process.env, cwd = process.cwd()): string | undefined {
  if (explicit) return resolve(cwd, explicit);
  if (env.TRACEJUDGE_CONFIG) return resolve(cwd, env.TRACEJUDGE_CONFIG);
  const local = resolve(cwd, 'tracejudge.yaml');
  return existsSync(local) ? local : undefined;
}

/** Why a file could not be read, in words. */
const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent of it is not a directory',
  ELOOP: 'too many symbolic links',
};

/** Load and validate a config file, or the built-in defaults when `path` is undefined. */
export function loadConfig(path: string | undefined, env: Env = process.env, options: ParseOptions = {}): Config {
  if (path === undefined) return parseConfig({}, '<defaults>', env, options);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why = READ_ERRORS[code];
    throw new TracejudgeError(ErrorCodes.CONFIG_UNREADABLE, `${path}: cannot read config: ${why ? `${why} (${code})` : code}`);
  }
  return parseConfigText(text, path, env, options);
}
