/**
 * Environment variables for the listen host and ports, so a container is configured without mounting a
 * file (`docker run -e TRACEJUDGE_OTLP_HTTP_PORT=4319 …`). A variable fills its key only when the YAML
 * leaves the key out: a key written in the file wins (write `port: ${TRACEJUDGE_OTLP_HTTP_PORT}` to let
 * the variable win). The container image sets TRACEJUDGE_HOST=0.0.0.0; the library's default stays
 * 127.0.0.1. docs/configuration.md lists them next to their keys.
 */
import type { ConfigIssue } from '../errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Each variable and the listener keys it fills; the key paths are those of `LISTENERS` in load.ts. */
export const LISTEN_ENV = {
  TRACEJUDGE_HOST: [
    ['sources', 'otlp', 'http', 'host'],
    ['sources', 'otlp', 'grpc', 'host'],
    ['emit', 'prometheus', 'host'],
  ],
  TRACEJUDGE_OTLP_HTTP_PORT: [['sources', 'otlp', 'http', 'port']],
  TRACEJUDGE_OTLP_GRPC_PORT: [['sources', 'otlp', 'grpc', 'port']],
  TRACEJUDGE_METRICS_PORT: [['emit', 'prometheus', 'port']],
} as const satisfies Record<string, readonly (readonly string[])[]>;

export type ListenEnvName = keyof typeof LISTEN_ENV;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `doc` with `path` set to `value` where it is absent, copying the records on the way (the input is not changed). */
function withDefault(doc: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]];
  const child = doc[key];
  if (rest.length === 0) return child === undefined ? { ...doc, [key]: value } : doc;
  if (child !== undefined && !isRecord(child)) return doc; // a wrong type is the schema's to report
  return { ...doc, [key]: withDefault(child ?? {}, rest, value) };
}

/**
 * The expanded config document with the listen variables of `env` filled in where the document has no key,
 * and one issue per variable whose value cannot be a port. The host is checked by the schema, at its key.
 */
export function applyListenEnv(doc: Record<string, unknown>, env: Env): { doc: Record<string, unknown>; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  let out = doc;
  for (const [name, paths] of Object.entries(LISTEN_ENV) as [ListenEnvName, readonly (readonly string[])[]][]) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    let value: string | number = raw;
    if (name !== 'TRACEJUDGE_HOST') {
      const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(port >= 0 && port <= 65535)) {
        issues.push({ path: `$${name}`, message: `must be a port from 0 to 65535, got ${JSON.stringify(raw)} (it sets ${paths.map((p) => p.join('.')).join(', ')})` });
        continue;
      }
      value = port;
    }
    for (const p of paths) out = withDefault(out, p, value);
  }
  return { doc: out, issues };
}
