/**
 * Loads the real-library trace fixtures (test/fixtures/traces) as generator templates, one per file,
 * grouped by the instrumentation convention that produced them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonTraceRequest } from './otlp-json.js';

/** The conventions the generator mixes (fixture file prefixes). */
export const CONVENTIONS = ['aisdk6', 'aisdk7-otel', 'openinference', 'openllmetry', 'mastra'] as const;
export type Convention = (typeof CONVENTIONS)[number];

export interface Template {
  convention: Convention;
  file: string;
  request: JsonTraceRequest;
  spanCount: number;
}

/** Directory of the committed fixtures. */
export const FIXTURE_DIR = fileURLToPath(new URL('../../test/fixtures/traces/', import.meta.url));

function conventionOf(file: string): Convention | undefined {
  // Longest prefix first, so "aisdk7-otel-…" never matches a shorter prefix by accident.
  const sorted = [...CONVENTIONS].sort((a, b) => b.length - a.length);
  return sorted.find((c) => file.startsWith(`${c}-`));
}

let cache: Template[] | undefined;

/**
 * Every single-trace span fixture of a known convention (log fixtures and hand-written ones excluded),
 * sorted by file name so the template order, and thus generation, is stable.
 *
 * @throws Error when a fixture holds more or fewer than one trace, naming the file.
 */
export function loadTemplates(dir: string = FIXTURE_DIR): Template[] {
  if (dir === FIXTURE_DIR && cache) return cache;
  const out: Template[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json') || file.endsWith('.logs.json')) continue;
    const convention = conventionOf(file);
    if (!convention) continue;
    const request = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonTraceRequest;
    const traceIds = new Set<string>();
    let spanCount = 0;
    for (const rs of request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) {
          traceIds.add(s.traceId);
          spanCount++;
        }
      }
    }
    if (traceIds.size !== 1) throw new Error(`generator template ${file}: expected one trace, found ${traceIds.size}`);
    out.push({ convention, file, request, spanCount });
  }
  if (dir === FIXTURE_DIR) cache = out;
  return out;
}
