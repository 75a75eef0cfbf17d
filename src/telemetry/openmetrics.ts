/**
 * `/metrics` in the OpenMetrics 1.0 text format, with exemplars on the result metrics.
 *
 * @opentelemetry/exporter-prometheus writes only the Prometheus 0.0.4 text format, which has no exemplars.
 * Rather than a second metrics library with its own copy of the instruments (and a second set of names to
 * keep equal), the OpenMetrics body is the exporter's own text, rewritten: sample lines and label sets stay
 * byte for byte what the plain format says, so both formats name the same series.
 * - `# TYPE`/`# HELP` of a counter name the family without `_total` (OpenMetrics names families, samples keep `_total`);
 * - `# UNIT` lines are left out (OpenMetrics requires the unit to be a suffix of the name, which ours are not);
 * - `"` in `# HELP` text is escaped, as OpenMetrics asks;
 * - `tracejudge_evaluations_total` samples and `tracejudge_evaluation_score_bucket` samples get the last
 *   exemplar of their series (`# {trace_id="…"} value timestamp`), from the {@link ExemplarStore};
 * - the body ends with `# EOF`.
 */
import type { Exemplar, ExemplarStore } from './exemplars.js';

export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

/** Whether an `Accept` header asks for OpenMetrics (any `application/openmetrics-text` range with q above 0). */
export function acceptsOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/openmetrics-text') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

const COUNTER = 'tracejudge_evaluations_total';
const BUCKET = 'tracejudge_evaluation_score_bucket';

/** The exporter's 0.0.4 text as OpenMetrics 1.0 with exemplars (see the module comment). */
export function toOpenMetrics(text: string, exemplars: ExemplarStore | undefined): string {
  const counters = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) counter$/gm)) if (m[1]) counters.add(m[1]);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# UNIT ')) continue;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
      const space = line.indexOf(' ', 7);
      const name = space < 0 ? line.slice(7) : line.slice(7, space);
      const rest = space < 0 ? '' : line.slice(space);
      const family = counters.has(name) && name.endsWith('_total') ? name.slice(0, -'_total'.length) : name;
      out.push(`${line.slice(0, 7)}${family}${line.startsWith('# HELP ') ? rest.replace(/"/g, '\\"') : rest}`);
      continue;
    }
    if (line.startsWith('#') || !exemplars) {
      out.push(line);
      continue;
    }
    const exemplar = exemplarFor(line, exemplars);
    out.push(exemplar ? `${line} ${formatExemplar(exemplar)}` : line);
  }
  out.push('# EOF');
  return `${out.join('\n')}\n`;
}

function exemplarFor(line: string, store: ExemplarStore): Exemplar | undefined {
  const brace = line.indexOf('{');
  if (brace < 0) return undefined;
  const name = line.slice(0, brace);
  if (name !== COUNTER && name !== BUCKET) return undefined;
  const labels = parseLabels(line, brace);
  if (!labels) return undefined;
  const scorer = labels.get('gen_ai_evaluation_name');
  const agent = labels.get('gen_ai_agent_name');
  if (scorer === undefined || agent === undefined) return undefined;
  if (name === COUNTER) {
    const outcome = labels.get('outcome');
    return outcome === undefined ? undefined : store.counter(scorer, agent, outcome);
  }
  const le = labels.get('le');
  return le === undefined ? undefined : store.bucket(scorer, agent, le);
}

/** The label set starting at `{` (index `at`), values unescaped; undefined when it does not parse. */
export function parseLabels(line: string, at: number): Map<string, string> | undefined {
  const labels = new Map<string, string>();
  let i = at + 1;
  while (i < line.length && line[i] !== '}') {
    const eq = line.indexOf('="', i);
    if (eq < 0) return undefined;
    const name = line.slice(i, eq);
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] === '\\' && j + 1 < line.length) {
        j++;
        value += line[j] === 'n' ? '\n' : line[j];
      } else value += line[j];
    }
    if (j >= line.length) return undefined;
    labels.set(name, value);
    i = j + 1;
    if (line[i] === ',') i++;
  }
  return line[i] === '}' ? labels : undefined;
}

function formatExemplar(e: Exemplar): string {
  return `# {trace_id="${e.traceId}"} ${e.value} ${(e.timeMs / 1000).toFixed(3)}`;
}
