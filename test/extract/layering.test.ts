/**
 * Extraction does not know the wire format (issue 32, item 10): no module under src/extract imports from
 * src/ingest, directly or through a relative path. The eslint rule in eslint.config.js says the same at
 * edit time; this test reads the import specifiers so it holds whatever the lint configuration becomes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../api/temp-project.js';

const SRC = join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every `from '…'` and `import('…')` specifier of `text`. */
export function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
}

/** Files under `layer` (relative to src) that import something under `forbidden` (relative to src). */
function violations(layer: string, forbidden: string): string[] {
  const bad: string[] = [];
  for (const file of tsFiles(join(SRC, layer))) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), spec));
      if (target === forbidden || target.startsWith(`${forbidden}/`)) bad.push(`${relative(ROOT, file)} → ${spec}`);
    }
  }
  return bad;
}

describe('layering', () => {
  it('finds an import of ingest when there is one (the check can fail)', () => {
    expect(specifiers(`import { a } from '../ingest/otlp/decode.js';\nexport { b } from "./x.js";\nconst m = await import('../ingest/y.js');`)).toEqual([
      '../ingest/otlp/decode.js',
      './x.js',
      '../ingest/y.js',
    ]);
    expect(violations('api', 'ingest').length).toBeGreaterThan(0);
  });

  it('src/extract imports nothing from src/ingest', () => {
    expect(tsFiles(join(SRC, 'extract')).length).toBeGreaterThan(5);
    expect(violations('extract', 'ingest')).toEqual([]);
  });
});
