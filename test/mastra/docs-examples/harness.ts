/**
 * Runs the stored copies of Mastra's docs examples (./examples/**). A stored example is a markdown file: a
 * `Source:` line naming the doc, the code block (its number among the doc's fenced blocks) and its heading; the
 * doc's own import lines in a `ts doc-imports` block; and the example in a `ts example` block, which is the doc's
 * code block with only its import lines changed. Markdown, not `.ts`, because some examples do not compile (the
 * docs have bugs, kept as they are), and so GitHub shows them as readable pages.
 *
 * - {@link loadExample} reads a stored file: source, doc imports, the example's import statements and its body.
 * - {@link docBlock} reads the block from the doc (the pinned packages in bench/reference; the Mastra 0.x docs
 *   from ./sources/mastra-0.x.md), {@link originalOf} rebuilds the doc's text from the stored file (its doc imports
 *   put back), and {@link importChanges} checks that each import statement differs from the doc's only in its
 *   module specifier, which must be one of {@link ALLOWED_SPECIFIERS} or a stand-in under ./stand-ins/. Imports
 *   the doc forgot (a name it uses without importing) may be added, from tracejudge or a stand-in.
 * - {@link runExample} evaluates the body: the imports are bound from the modules they name (`tracejudge` is the
 *   package's source entry, src/index.ts), the TypeScript body is transpiled (types stripped, `export` dropped
 *   from top-level declarations, nothing else) and run as the body of an async function with a recording
 *   `console`, and the function returns every top-level binding of the example, so a test can assert on
 *   `result`, `scorer`, … The example's own code is not changed.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Where the current docs are: the packages pinned in bench/reference. */
export const REFERENCE_MODULES = fileURLToPath(new URL('../../../bench/reference/node_modules/', import.meta.url));
/** The Mastra 0.x docs' code blocks, copied with their provenance (the docs are gone from the packages). */
export const LEGACY_SOURCES = join(HERE, 'sources', 'mastra-0.x.md');
export const EXAMPLES_DIR = join(HERE, 'examples');
const STAND_INS = join(HERE, 'stand-ins');
const TRACEJUDGE_ENTRY = fileURLToPath(new URL('../../../src/index.ts', import.meta.url));

/** Module specifiers an example's imports may be changed to (besides stand-ins). */
export const ALLOWED_SPECIFIERS: readonly string[] = ['tracejudge', '@ai-sdk/openai', 'zod', 'vitest'];

/** One import statement: its text and the parts of it. */
export interface ImportStatement {
  text: string;
  /** The statement with its specifier replaced by `<>`: what must stay equal. */
  shape: string;
  specifier: string;
  typeOnly: boolean;
  /** local name → what is imported (`default`, `*`, or the exported name). */
  bindings: Array<{ local: string; imported: string }>;
}

export interface LoadedExample {
  file: string;
  /** e.g. `@mastra/evals/dist/docs/references/reference-evals-bias.md` or `mastra-0.x:docs/src/content/en/reference/evals/bias.mdx`. */
  doc: string;
  /** 1-based index of the block among the doc's fenced blocks. */
  block: number;
  heading: string;
  docImportLines: string[];
  /** The stored file's import region (import statements and any comment lines among them). */
  importLines: string[];
  imports: ImportStatement[];
  /** Everything after the import region, verbatim. */
  body: string;
}

const SOURCE_LINE = /^Source: `([^`]+)`, code block (\d+), "(.*)"$/;

/** Splits the leading import statements (and comment / blank lines among them) from the rest. */
function splitImports(lines: readonly string[]): { region: string[]; rest: string[] } {
  let end = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (/^import[\s{*'"]/.test(line)) {
      let j = i;
      while (j < lines.length && !/(?:from\s*)?['"][^'"]+['"];?\s*(?:\/\/.*)?$/.test(lines[j] ?? '')) j++;
      i = j + 1;
      end = i;
    } else if (line.trim() === '' || /^\s*\/\//.test(line)) {
      i++;
    } else break;
  }
  return { region: lines.slice(0, end), rest: lines.slice(end) };
}

function parseStatements(region: readonly string[]): ImportStatement[] {
  const out: ImportStatement[] = [];
  const text = region.filter((l) => !/^\s*\/\//.test(l)).join('\n');
  const re = /import\s+(type\s+)?([\s\S]*?)\s*from\s*(['"])([^'"]+)\3;?|import\s+(['"])([^'"]+)\5;?/g;
  for (const m of text.matchAll(re)) {
    const full = m[0];
    if (m[6] !== undefined) {
      out.push({ text: full, shape: full.replace(m[6], '<>'), specifier: m[6], typeOnly: false, bindings: [] });
      continue;
    }
    const clause = m[2] ?? '';
    const bindings: ImportStatement['bindings'] = [];
    const named = /\{([\s\S]*)\}/.exec(clause);
    if (named?.[1]) {
      for (const part of named[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        if (part.startsWith('type ')) continue;
        const [imported, local] = part.split(/\s+as\s+/).map((s) => s.trim());
        if (imported) bindings.push({ imported, local: local ?? imported });
      }
    }
    const star = /\*\s+as\s+([\w$]+)/.exec(clause);
    if (star?.[1]) bindings.push({ imported: '*', local: star[1] });
    const def = /^([\w$]+)/.exec(clause.trim());
    if (def?.[1] && !clause.trim().startsWith('{') && !clause.trim().startsWith('*')) bindings.push({ imported: 'default', local: def[1] });
    const specifier = m[4] ?? '';
    out.push({ text: full, shape: full.replace(`${m[3]}${specifier}${m[3]}`, '<>'), specifier, typeOnly: m[1] !== undefined, bindings });
  }
  return out;
}

/** The lines of the fenced block opened by `fence` (e.g. "```ts example"), or undefined. */
function fencedAfter(lines: readonly string[], fence: string): string[] | undefined {
  const start = lines.indexOf(fence);
  if (start < 0) return undefined;
  const end = lines.indexOf('```', start + 1);
  return end < 0 ? undefined : lines.slice(start + 1, end);
}

/** Reads a stored example. Throws naming the file when it is malformed. */
export function loadExample(file: string): LoadedExample {
  const lines = readFileSync(file, 'utf8').split('\n');
  const source = lines.map((l) => SOURCE_LINE.exec(l)).find((m) => m !== null);
  if (!source) throw new Error(`${file}: no "Source: \`<doc>\`, code block <n>, "<heading>"" line`);
  const docImportLines = fencedAfter(lines, '```ts doc-imports');
  const example = fencedAfter(lines, '```ts example');
  if (!docImportLines || !example) throw new Error(`${file}: needs a "\`\`\`ts doc-imports" and a "\`\`\`ts example" block`);
  const { region, rest } = splitImports(example);
  return {
    file,
    doc: source[1] ?? '',
    block: Number(source[2]),
    heading: source[3] ?? '',
    docImportLines,
    importLines: region,
    imports: parseStatements(region),
    body: rest.join('\n'),
  };
}

/** Every stored example under ./examples/<folder>, sorted. */
export function exampleFiles(folder: string): string[] {
  const dir = join(EXAMPLES_DIR, folder);
  return ts.sys
    .readDirectory(dir, ['.md'])
    .map((f) => resolve(f))
    .sort();
}

/** The fenced code blocks of a markdown text, in order: heading above each, and its text. */
export function fencedBlocks(markdown: string): Array<{ heading: string; text: string }> {
  const out: Array<{ heading: string; text: string }> = [];
  const lines = markdown.split('\n');
  let heading = '';
  let open: string[] | undefined;
  for (const line of lines) {
    if (open === undefined) {
      if (/^#+ /.test(line)) heading = line;
      if (/^```/.test(line)) open = [];
    } else if (/^```\s*$/.test(line)) {
      out.push({ heading, text: open.join('\n') });
      open = undefined;
    } else open.push(line);
  }
  return out;
}

/** The doc block a stored example came from, or undefined when the doc is not on this machine. */
export function docBlock(example: Pick<LoadedExample, 'doc' | 'block'>): { heading: string; text: string } | undefined {
  let markdown: string;
  if (example.doc.startsWith('mastra-0.x:')) {
    const path = example.doc.slice('mastra-0.x:'.length);
    const all = readFileSync(LEGACY_SOURCES, 'utf8');
    // The sources file has one "## <path>" section per doc; its blocks are the doc's blocks in order.
    const start = all.indexOf(`\n## ${path}\n`);
    if (start < 0) return undefined;
    const next = all.indexOf('\n## ', start + 4);
    markdown = all.slice(start, next < 0 ? undefined : next);
    const blocks = fencedBlocks(markdown.replace(/^\n## .*\n/, '\n'));
    return blocks[example.block - 1];
  }
  try {
    markdown = readFileSync(join(REFERENCE_MODULES, example.doc), 'utf8');
  } catch {
    return undefined;
  }
  return fencedBlocks(markdown)[example.block - 1];
}

/** The doc's text as rebuilt from the stored example: its doc import lines, then its body. */
export function originalOf(example: LoadedExample): string {
  return [...example.docImportLines, ...example.body.split('\n')].join('\n');
}

/** Problems with the import changes of an example: a changed clause, a specifier not allowed, a count mismatch. */
export function importChanges(example: LoadedExample): string[] {
  const problems: string[] = [];
  const doc = parseStatements(splitImports(example.docImportLines).region);
  const ours = example.imports;
  const docComments = example.docImportLines.filter((l) => /^\s*\/\//.test(l) || l.trim() === '');
  const ourComments = example.importLines.filter((l) => /^\s*\/\//.test(l) || l.trim() === '');
  if (docComments.join('\n') !== ourComments.join('\n')) problems.push('the comment and blank lines among the imports differ from the doc');
  // The stored file may add imports for names the doc uses without importing; every doc import must remain.
  let j = 0;
  for (const d of doc) {
    while (j < ours.length && ours[j]?.shape !== d.shape) {
      problems.push(...addedImportProblem(example.file, ours[j]));
      j++;
    }
    const o = ours[j];
    if (!o) {
      problems.push(`doc import ${JSON.stringify(d.text)} has no counterpart`);
      continue;
    }
    if (!allowedSpecifier(example.file, o.specifier)) problems.push(`import ${JSON.stringify(o.text)}: ${o.specifier} is not an allowed module`);
    j++;
  }
  for (; j < ours.length; j++) problems.push(...addedImportProblem(example.file, ours[j]));
  return problems;
}

/** An import the doc forgot (a name it uses without importing): allowed from tracejudge or a stand-in only. */
function addedImportProblem(file: string, s: ImportStatement | undefined): string[] {
  if (!s) return [];
  return allowedSpecifier(file, s.specifier) ? [] : [`added import ${JSON.stringify(s.text)} is not from an allowed module or a stand-in`];
}

function allowedSpecifier(file: string, specifier: string): boolean {
  if (ALLOWED_SPECIFIERS.includes(specifier)) return true;
  if (!specifier.startsWith('.')) return false;
  const target = resolve(dirname(file), specifier);
  return !relative(STAND_INS, target).startsWith('..');
}

/** Imports the stored example added (names the doc uses but does not import). */
export function addedImports(example: LoadedExample): ImportStatement[] {
  const docShapes = new Set(parseStatements(splitImports(example.docImportLines).region).map((s) => s.shape));
  return example.imports.filter((s) => !docShapes.has(s.shape));
}

/** What one run of an example produced. */
export interface ExampleRun {
  /** The example's top-level bindings after it ran (or as far as it got). */
  bindings: Record<string, unknown>;
  /** Every `console.*` call: the method and its arguments. */
  logs: Array<{ method: string; args: unknown[] }>;
  /** What the example threw, if it did. */
  error?: unknown;
}

/** Top-level names the (transpiled) body declares. */
export function declaredNames(js: string): string[] {
  const names = new Set<string>();
  for (const line of js.split('\n')) {
    const simple = /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (simple?.[1]) names.add(simple[1]);
    const fn = /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/.exec(line);
    if (fn?.[1]) names.add(fn[1]);
    const cls = /^(?:export\s+)?class\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (cls?.[1]) names.add(cls[1]);
    const destructured = /^(?:const|let|var)\s+[{[]([^}\]=]*)[}\]]\s*=/.exec(line);
    if (destructured?.[1]) {
      for (const part of destructured[1].split(',')) {
        const local = (part.includes(':') ? part.split(':')[1] : part)?.split('=')[0]?.trim().replace(/^\.\.\./, '');
        if (local && /^[A-Za-z_$][\w$]*$/.test(local)) names.add(local);
      }
    }
  }
  return [...names];
}

/** The TypeScript body as JavaScript: types stripped, nothing else (no module transform). */
export function transpileBody(body: string, file: string): string {
  const out = ts.transpileModule(body, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleDetection: ts.ModuleDetectionKind.Force, isolatedModules: true },
  });
  const syntax = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntax.length > 0) {
    const first = syntax[0];
    const message = first ? ts.flattenDiagnosticMessageText(first.messageText, '\n') : '';
    throw new SyntaxError(`${file}: the example does not parse: ${message}`);
  }
  // A function body cannot export: top-level declarations lose `export` (their bindings are returned instead).
  return out.outputText.replace(/^export \{\};\s*$/m, '').replace(/^export (?=(?:const|let|var|function|async function|class)\b)/gm, '');
}

function recordingConsole(logs: ExampleRun['logs']): Console {
  const record =
    (method: string) =>
    (...args: unknown[]): void => {
      logs.push({ method, args });
    };
  return { ...console, log: record('log'), info: record('info'), warn: record('warn'), error: record('error'), debug: record('debug'), table: record('table') };
}

async function asyncPrototypeWitness(): Promise<void> {
  await Promise.resolve();
}
const AsyncFunction = (Object.getPrototypeOf(asyncPrototypeWitness) as { constructor: unknown }).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;

/** Imports a module an example names: `tracejudge` is the package's source entry, stand-ins resolve from the example. */
async function importSpecifier(example: LoadedExample, specifier: string): Promise<Record<string, unknown>> {
  if (specifier === 'tracejudge') return (await import(TRACEJUDGE_ENTRY)) as Record<string, unknown>;
  if (specifier.startsWith('.')) return (await import(resolve(dirname(example.file), specifier))) as Record<string, unknown>;
  return (await import(specifier)) as Record<string, unknown>;
}

/**
 * Runs an example. Every import must resolve (a missing export is an error naming it, as a module import would
 * be). Resolves with the bindings and the logs; what the example throws is in `error`.
 */
export async function runExample(example: LoadedExample): Promise<ExampleRun> {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const s of example.imports) {
    if (s.typeOnly) continue;
    const mod = await importSpecifier(example, s.specifier);
    for (const b of s.bindings) {
      if (b.imported === '*') values.push(mod);
      else if (b.imported === 'default') values.push(mod.default ?? mod);
      else {
        if (!(b.imported in mod)) throw new SyntaxError(`${relative(EXAMPLES_DIR, example.file)}: The requested module '${s.specifier}' does not provide an export named '${b.imported}'`);
        values.push(mod[b.imported]);
      }
      names.push(b.local);
    }
  }
  const js = transpileBody(example.body, example.file);
  const declared = declaredNames(js).filter((n) => !names.includes(n));
  const logs: ExampleRun['logs'] = [];
  const collect = `{ ${declared.map((n) => `${JSON.stringify(n)}: (() => { try { return ${n}; } catch { return undefined; } })()`).join(', ')} }`;
  // Strict, as module code is. The collector is declared in the body's own block (so it sees its bindings,
  // hoisted above them) and called in \`finally\`, so the bindings reached before an error are returned too.
  const source = `'use strict';\nlet __collector;\ntry {\nfunction __collect() { return ${collect}; }\n__collector = __collect;\n${js}\n} finally {\n__out.bindings = __collector ? __collector() : {};\n}`;
  const fn = new AsyncFunction('console', '__out', ...names, source);
  const out: { bindings: Record<string, unknown> } = { bindings: {} };
  try {
    await fn(recordingConsole(logs), out, ...values);
    return { bindings: out.bindings, logs };
  } catch (error) {
    return { bindings: out.bindings, logs, error };
  }
}
