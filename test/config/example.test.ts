import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig, parseConfigText } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { schemaKeys } from './schema-keys.js';

const examplePath = fileURLToPath(new URL('../../config/tracejudge.example.yaml', import.meta.url));
const text = readFileSync(examplePath, 'utf8');

/** Paths of every leaf (arrays are leaves) of a plain object tree. */
function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

function hasPath(tree: unknown, path: readonly string[]): boolean {
  let node = tree;
  for (const k of path) {
    if (node === null || typeof node !== 'object' || !(k in node)) return false;
    node = (node as Record<string, unknown>)[k];
  }
  return true;
}

describe('config/tracejudge.example.yaml', () => {
  it('parses, validates, and equals the built-in defaults (empty environment)', () => {
    const fromExample = parseConfigText(text, examplePath, {});
    const defaults = parseConfig({}, '<defaults>', {});
    expect(fromExample).toEqual(defaults);
  });

  it('writes out every key that has a default', () => {
    const raw: unknown = parse(text);
    const defaults = parseConfig({}, '<defaults>', {});
    const missing = leafPaths(defaults)
      .filter((p) => !hasPath(raw, p))
      .map((p) => p.join('.'));
    expect(missing).toEqual([]);
  });

  it('mentions every key of the schema, optional ones included (at least in a comment)', () => {
    const escape = (k: string): string => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const missing = [...schemaKeys(configSchema)].filter((k) => !new RegExp(`(^|[\\s{,"])${escape(k)}"?:`, 'm').test(text));
    expect(missing).toEqual([]);
  });

  it('gives every uncommented key a one-line comment', () => {
    const undocumented = text
      .split('\n')
      .filter((l) => /^\s*[A-Za-z][\w-]*:\s*\S/.test(l) && !l.includes('#'))
      .map((l) => l.trim());
    expect(undocumented).toEqual([]);
  });
});
