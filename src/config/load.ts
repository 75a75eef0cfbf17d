/**
 * Loads a config file: YAML → `${VAR}` / `${VAR:-default}` expansion → one zod parse → deep freeze.
 * Every problem is reported with its key path; none is silently dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError, ErrorCodes, errorMessage, TracejudgeError, type ConfigIssue } from '../errors.js';
import { applyListenEnv } from './listen-env.js';
import { formatPath } from './path.js';
import { configSchema, type Config } from './schema.js';
import { duplicateListenerIssues, type ListenerAt } from './sections/listeners.js';
import { didYouMean, knownKeysAt } from './suggest.js';

export type Env = Readonly<Record<string, string | undefined>>;

// The YAML parser is required when there is YAML to read: a command run without a config file (offline
// `extract`, `score`) never loads it. It is CommonJS, so a synchronous require keeps loading synchronous.
const require = createRequire(import.meta.url);
type YAMLError = import('yaml').YAMLError;
type LineCounter = import('yaml').LineCounter;
const loadYaml = (): typeof import('yaml') => require('yaml') as typeof import('yaml');

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

/**
 * Config issues from zod issues: an unknown key is one issue per key; a bad record key (an invalid agent
 * pattern) is reported at that key with its own message instead of zod's "Invalid key in record".
 */
export function zodIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = [], schema?: z.ZodType): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      // With the schema, a typo gets the key it was likely meant as (`scorer` → `scorers`).
      const known = schema ? knownKeysAt(schema, issue.path) : [];
      for (const key of issue.keys) out.push({ path: formatPath([...at, key]), message: `unknown key${didYouMean(key, known)}` });
    } else if (issue.code === 'invalid_key' && issue.issues.length > 0) {
      for (const inner of issue.issues) out.push({ path: formatPath(at), message: inner.message });
    } else {
      out.push({ path: formatPath(at), message: issue.message });
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
 * Listeners that `serve` would open on one port, read from the document with the schema's defaults, so the
 * clash is reported even when their sections have other errors.
 */
function listenerIssues(raw: Record<string, unknown>): ConfigIssue[] {
  const listeners: ListenerAt[] = [];
  for (const l of LISTENERS) {
    const node = l.path.reduce<unknown>((n, k) => (isRecord(n) ? n[k] : undefined), raw);
    const section = isRecord(node) ? node : {};
    if (section.enabled === false) continue;
    const host = typeof section.host === 'string' ? section.host : '127.0.0.1';
    const port = typeof section.port === 'number' ? section.port : l.defaultPort;
    listeners.push({ path: l.path.join('.'), host, port });
  }
  return duplicateListenerIssues(listeners);
}

/** The listeners `serve` opens, with the default ports of the schema (a test keeps them equal). */
export const LISTENERS = [
  { path: ['sources', 'otlp', 'http'], defaultPort: 4318 },
  { path: ['sources', 'otlp', 'grpc'], defaultPort: 4317 },
  { path: ['emit', 'prometheus'], defaultPort: 9464 },
] as const;

/**
 * The outcome of checking a config: every issue found, the config when there is none, and the document after
 * `${VAR}` expansion (for checks that go further, such as loading custom scorer modules), absent only when
 * the YAML itself could not be parsed.
 */
export interface ConfigCheck {
  issues: ConfigIssue[];
  config?: Config;
  expanded?: unknown;
}

/**
 * Check an already-parsed object in one pass: the schema, the scorer entries against their types and the
 * cross-section references are all checked whatever else is wrong, and every issue is reported.
 */
export function checkConfig(raw: unknown, env: Env = process.env, options: ParseOptions = {}): ConfigCheck {
  let expanded = expandEnv(raw ?? {}, env);
  // TRACEJUDGE_HOST and the port variables fill listener keys the file leaves out (listen-env.ts).
  let envIssues: ConfigIssue[] = [];
  if (isRecord(expanded)) ({ doc: expanded, issues: envIssues } = applyListenEnv(expanded, env));
  const result = configSchema.safeParse(expanded);
  const issues: ConfigIssue[] = [...envIssues, ...(result.success ? [] : zodIssues(result.error.issues, [], configSchema))];
  if (isRecord(expanded)) {
    if (options.scorers && isRecord(expanded.scorers)) issues.push(...options.scorers.check(expanded.scorers));
    issues.push(...budgetIssues(expanded));
    issues.push(...listenerIssues(expanded));
  }
  return issues.length > 0 || !result.success ? { issues, expanded } : { issues, expanded, config: deepFreeze(result.data) };
}

/**
 * One issue per YAML syntax problem. After a structural error the parser reports every later token as
 * "Unexpected … token in YAML stream" (a `${VAR:-x}` in a flow map gave 44 lines); those cascades, and further
 * errors on a line already reported, are left out. A placeholder inside a `{ }` flow map gets the fix.
 */
function yamlSyntaxIssues(errors: readonly YAMLError[], text: string, lineCounter: LineCounter): ConfigIssue[] {
  const lines = text.split('\n');
  const issues: ConfigIssue[] = [];
  const reportedLines = new Set<number>();
  for (const e of errors) {
    const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
    if (reportedLines.has(pos.line) || (issues.length > 0 && e.code === 'UNEXPECTED_TOKEN')) continue;
    reportedLines.add(pos.line);
    const source = lines[pos.line - 1] ?? '';
    const flowPlaceholder = /\{[^}]*\$\{/.test(source) && !/["']\$\{/.test(source);
    const hint = flowPlaceholder ? ' (a ${VAR:-default} placeholder inside a { } flow map must be quoted: "${VAR:-default}")' : '';
    issues.push({ path: `line ${pos.line}, column ${pos.col}`, message: `${e.message.split('\n')[0] ?? e.message}${hint}` });
  }
  return issues;
}

/** `checkConfig` of YAML text; YAML syntax errors are issues with line and column (and nothing else is checked). */
export function checkConfigText(text: string, env: Env = process.env, options: ParseOptions = {}): ConfigCheck {
  const { LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) return { issues: yamlSyntaxIssues(doc.errors, text, lineCounter) };
  return checkConfig(doc.toJS({ maxAliasCount: 100 }) as unknown, env, options);
}

/**
 * Validate an already-parsed object (see `checkConfig`). Throws `ConfigError` listing every issue; returns
 * the frozen config.
 */
export function parseConfig(raw: unknown, file = '<config>', env: Env = process.env, options: ParseOptions = {}): Config {
  const { issues, config } = checkConfig(raw, env, options);
  if (!config) throw new ConfigError(file, issues);
  return config;
}

/** Parse YAML text; YAML syntax errors are reported with line and column. */
export function parseConfigText(text: string, file = '<config>', env: Env = process.env, options: ParseOptions = {}): Config {
  const { issues, config } = checkConfigText(text, env, options);
  if (!config) throw new ConfigError(file, issues);
  return config;
}

/** Which file to read: `-c`, else `TRACEJUDGE_CONFIG`, else `./tracejudge.yaml` if present, else none. */
export function resolveConfigPath(explicit: string | undefined, env: Env = process.env, cwd = process.cwd()): string | undefined {
  if (explicit) return resolve(cwd, explicit);
  if (env.TRACEJUDGE_CONFIG) return resolve(cwd, env.TRACEJUDGE_CONFIG);
  const local = resolve(cwd, 'tracejudge.yaml');
  return existsSync(local) ? local : undefined;
}

/** Why a file could not be read, in words (the errno code follows in parentheses). */
const READ_ERRORS: Readonly<Record<string, string>> = {
  EACCES: 'cannot be read: permission denied',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'does not exist (a parent of it is not a directory)',
  ELOOP: 'cannot be read: too many symbolic links',
};

/**
 * The text of a config file. Throws `TracejudgeError` TJ_CONFIG_UNREADABLE in words:
 * `config file /etc/x.yaml does not exist`, `config file /etc/x.yaml cannot be read: permission denied (EACCES)`;
 * `source` says where the name came from when it was not `-c` (e.g. `$TRACEJUDGE_CONFIG`).
 */
export function readConfigFile(path: string, source?: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const from = source ? ` (named by ${source})` : '';
    const why = code === 'ENOENT' ? 'does not exist' : `${READ_ERRORS[code] ?? `cannot be read: ${errorMessage(err)}`} (${code})`;
    throw new TracejudgeError(ErrorCodes.CONFIG_UNREADABLE, `config file ${path}${from} ${why}`);
  }
}

/**
 * Load and validate a config file, or the built-in defaults when `path` is undefined. `source` names where
 * the path came from, for the message when the file cannot be read.
 */
export function loadConfig(path: string | undefined, env: Env = process.env, options: ParseOptions = {}, source?: string): Config {
  if (path === undefined) return parseConfig({}, '<defaults>', env, options);
  return parseConfigText(readConfigFile(path, source), path, env, options);
}
