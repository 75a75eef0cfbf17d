/**
 * Prompt templates of `type: judge` scorers: `{{input}}`, `{{output}}`, `{{context}}`, `{{toolResults}}`
 * and `{{groundTruth}}`. Every value is untrusted trace content, so each is put in a fenced data block
 * (`fence.ts`) where the placeholder stood; the template text itself is the user's trusted instruction.
 */
import { fence, fenceList } from '../llm/fence.js';

const TEMPLATE_VARIABLES = ['input', 'output', 'context', 'toolResults', 'groundTruth'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;

/** Placeholders used by `template` that are not known variables (for config validation). */
export function unknownPlaceholders(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    const v = m[1] ?? '';
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(v) && !out.includes(v)) out.push(v);
  }
  return out;
}

/** Values of one run. */
export interface TemplateValues {
  input: string;
  output: string;
  context: readonly string[];
  /** Each tool result as `JSON.stringify({ tool, result })`. */
  toolResults: readonly string[];
  groundTruth?: string | undefined;
}

const LABELS: Record<TemplateVariable, string> = {
  input: 'USER INPUT',
  output: 'AGENT OUTPUT',
  context: 'CONTEXT',
  toolResults: 'TOOL RESULTS',
  groundTruth: 'GROUND TRUTH',
};

/**
 * Render a template with fenced values. Unknown placeholders are left as written.
 *
 * @example
 * ```ts
 * renderTemplate('Is this answer polite?\n{{output}}', { input: '', output: 'Go away.', context: [], toolResults: [] });
 * ```
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    switch (name) {
      case 'input':
      case 'output':
        return fence(LABELS[name], values[name]);
      case 'context':
      case 'toolResults':
        return fenceList(LABELS[name], values[name]);
      case 'groundTruth':
        return fence(LABELS.groundTruth, values.groundTruth ?? '(none)');
      default:
        return whole;
    }
  });
}
