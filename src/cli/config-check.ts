/**
 * The whole check of `tracejudge check-config`, in one pass: every issue of every section is collected before
 * anything is printed, so a file is fixed in one round. On top of the config's own check (the schema of every
 * section, the scorer entries against their types and thresholds, the budget references; src/config/load.ts)
 * it reports, whatever else is wrong:
 * - judge scorers configured while no judge can be reached (`scorers.<name>.type`);
 * - custom scorer modules that cannot be found, loaded, or export no scorer (`scorers.<name>.module` / `.export`):
 *   each module is imported, as `serve` would;
 * - options that have no effect: `reason` on a scorer that never gives a reason (a code scorer, or a module
 *   without a reason step), and sampling overrides for scorers that are not configured;
 * - TLS files of enabled listeners that are missing, unreadable, not PEM, or a key that does not match its
 *   certificate (`sources.otlp.http.tls.certFile`, …), read as `serve` would;
 * - paths `serve` writes that cannot be written (`emit.jsonl.path`, `sources.otlp.wal.dir`);
 * - an OTLP export endpoint that is one of the service's own receivers (src/service/self-loop.ts), named by
 *   the key or the environment variable that set it.
 */
import { dirname } from 'node:path';
import { checkConfig, checkConfigText, readConfigFile, type Env } from '../config/load.js';
import { formatPath } from '../config/path.js';
import type { Config } from '../config/schema.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { judgeEnabled, resolveJudgeSettings } from '../judge/settings.js';
import { ElementCache } from '../scorers/code/completeness/element-cache.js';
import { ElementPool } from '../scorers/code/completeness/element-pool.js';
import { ScorerModuleError } from '../scorers/custom/module-scorer.js';
import type { ScorerRegistry } from '../scorers/registry.js';
import { effectiveScorerSection, judgeRequirementIssues } from '../service/scorers.js';
import { tlsServerSettings } from '../config/sections/tls.js';
import { serverTlsIssues } from '../tls/material.js';
import { writablePathIssues } from '../config/writable-paths.js';
import { findSelfLoop, selfLoopMessage } from '../service/self-loop.js';

export interface ConfigReport {
  /** The file checked, or `<defaults>`. */
  file: string;
  /** The config, when there is no issue. */
  config?: Config;
  issues: ConfigIssue[];
  /** Whether the judge (and so the judge scorers) is enabled; undefined when the `judge` section is invalid. */
  judgeOn?: boolean;
}

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether the judge is enabled by this (possibly invalid) document; undefined when its `judge` section is not valid. */
function judgeOf(doc: Obj, env: Env): boolean | undefined {
  try {
    // The section is checked by resolveJudgeSettings itself (it throws when invalid).
    const section: Parameters<typeof resolveJudgeSettings>[0] = isRecord(doc.judge) ? doc.judge : {};
    return judgeEnabled(resolveJudgeSettings(section, env));
  } catch {
    return undefined;
  }
}

/** Scorer entries with a string type (the others are reported by the schema). */
function typedEntries(doc: Obj): [string, Obj & { type: string }][] {
  if (!isRecord(doc.scorers)) return [];
  return Object.entries(doc.scorers).filter((e): e is [string, Obj & { type: string }] => isRecord(e[1]) && typeof e[1].type === 'string');
}

/**
 * Build the entries whose scorer is made from code here (code types and custom modules; judge types need the
 * judge) and report what building finds: modules that do not load, and `reason` where no reason is ever given.
 */
async function builtScorerIssues(entries: [string, Obj & { type: string }][], registry: ScorerRegistry, configDir: string): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  let pool: ElementPool | undefined;
  let cache: ElementCache | undefined;
  try {
    for (const [name, entry] of entries) {
      const custom = entry.type === 'custom';
      if (!registry.get(entry.type) || (!custom && registry.kindOf(entry.type) !== 'code')) continue;
      let steps: readonly { name: string }[];
      try {
        // Without its threshold: a threshold out of range is reported already and does not change the scorer.
        const { threshold: _threshold, ...rest } = entry;
        const built = await registry.build(name, { ...rest, type: entry.type }, {
          configDir,
          elementPool: (size) => (pool ??= new ElementPool(size)),
          elementCache: () => (cache ??= new ElementCache()),
        });
        steps = built.scorer.getSteps();
      } catch (err) {
        // Bad options are reported by the config check already.
        if (err instanceof ConfigError) continue;
        if (err instanceof ScorerModuleError) issues.push({ path: err.key, message: `${err.detail} (${err.file})` });
        else issues.push({ path: formatPath(['scorers', name]), message: `cannot be built: ${err instanceof Error ? err.message : String(err)}` });
        continue;
      }
      if ('reason' in entry && !steps.some((s) => s.name === 'generateReason')) {
        const what = custom ? `the scorer exported by ${String(entry.module)} has no generateReason step` : `${entry.type} scorers give no reason`;
        issues.push({ path: formatPath(['scorers', name, 'reason']), message: `has no effect: ${what} (remove it)` });
      }
    }
  } finally {
    await pool?.shutdown();
  }
  return issues;
}

/** `sampling.*.scorers.<name>` overrides naming a scorer that does not run: they would silently do nothing. */
function samplingReferenceIssues(doc: Obj, scorerNames: ReadonlySet<string>): ConfigIssue[] {
  const sampling = doc.sampling;
  if (!isRecord(sampling)) return [];
  const issues: ConfigIssue[] = [];
  const check = (scorers: unknown, path: (string | number)[]): void => {
    if (!isRecord(scorers)) return;
    for (const name of Object.keys(scorers)) {
      if (!scorerNames.has(name)) {
        issues.push({ path: formatPath([...path, name]), message: `has no effect: "${name}" is not a configured scorer (configured: ${[...scorerNames].join(', ') || 'none'})` });
      }
    }
  };
  if (isRecord(sampling.default)) check(sampling.default.scorers, ['sampling', 'default', 'scorers']);
  if (isRecord(sampling.agents)) for (const [agent, entry] of Object.entries(sampling.agents)) if (isRecord(entry)) check(entry.scorers, ['sampling', 'agents', agent, 'scorers']);
  return issues;
}

/**
 * The TLS files of the listeners `serve` would open, read as it would load them. Taken from the document, so
 * they are checked even when other sections have errors; a `tls` section with bad values is left to the schema.
 */
function tlsIssues(doc: Obj): ConfigIssue[] {
  const at = (path: readonly string[]): unknown => path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), doc);
  const listeners = [['sources', 'otlp', 'http'], ['sources', 'otlp', 'grpc'], ['emit', 'prometheus']] as const;
  return listeners.flatMap((path) => {
    const listener = at(path);
    if (!isRecord(listener) || listener.enabled === false) return [];
    const tls = tlsServerSettings.safeParse(listener.tls);
    return tls.success ? serverTlsIssues(tls.data, [...path, 'tls'].join('.')) : [];
  });
}

/**
 * Check the config at `path` (the built-in defaults when undefined) completely. A file that cannot be read
 * throws TJ_CONFIG_UNREADABLE (`config file … does not exist`); everything else is an issue in the report.
 */
export async function checkConfigFile(path: string | undefined, options: { env: Env; scorers: ScorerRegistry; source?: string | undefined }): Promise<ConfigReport> {
  const { env, scorers } = options;
  const file = path ?? '<defaults>';
  const check = path === undefined ? checkConfig({}, env, { scorers }) : checkConfigText(readConfigFile(path, options.source), env, { scorers });
  const doc = check.expanded;
  // A YAML syntax error: nothing else can be read.
  if (!isRecord(doc)) return { file, issues: check.issues };
  const issues = [...check.issues, ...tlsIssues(doc), ...writablePathIssues(doc)];
  const loop = check.config ? findSelfLoop(check.config, env) : undefined;
  if (loop) issues.push({ path: loop.source === 'emit.otlp.endpoint' ? loop.source : loop.receiver, message: selfLoopMessage(loop) });
  const judgeOn = check.config ? judgeEnabled(resolveJudgeSettings(check.config.judge, env)) : judgeOf(doc, env);
  const entries = typedEntries(doc);
  if (judgeOn === false) {
    const withTypes: Record<string, { type: string }> = Object.fromEntries(entries);
    issues.push(...judgeRequirementIssues({ scorers: withTypes } as Pick<Config, 'scorers'>, scorers, false));
  }
  issues.push(...(await builtScorerIssues(entries, scorers, path ? dirname(path) : process.cwd())));
  if (judgeOn !== undefined) {
    const names = isRecord(doc.scorers) ? Object.keys(doc.scorers) : Object.keys(effectiveScorerSection({ scorers: undefined }, judgeOn));
    issues.push(...samplingReferenceIssues(doc, new Set(names)));
  }
  return { file, issues, ...(issues.length === 0 && check.config ? { config: check.config } : {}), ...(judgeOn !== undefined ? { judgeOn } : {}) };
}
