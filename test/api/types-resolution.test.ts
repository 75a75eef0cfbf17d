/**
 * The package's types resolve for TypeScript consumers: a tiny project in the OS temp dir, with
 * node_modules/tracejudge a symlink to the repository (types from dist/, built by `npm run build`, which
 * `pretest` runs), type-checked by the repository's tsc under each module resolution setting. The
 * project has a file that must check with zero errors (values and types from `tracejudge` and
 * `tracejudge/testing`) and a file of deliberate mistakes that must fail exactly where marked, which also
 * proves the types are the package's own and not `any`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, dirWithPackage, removeDir, ROOT, run, writeFiles } from './temp-project.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

const GOOD = `import { createScorer, createContentSimilarityScorer, ErrorCodes, TracejudgeError, type ScoreRecord, type ScorerLike } from 'tracejudge';
import { startStubJudge, reply, type StubJudge } from 'tracejudge/testing';

const words: ScorerLike = createScorer({ id: 'words', description: 'an eighth of a point per word' }).generateScore(() => 0.5);
const similarity = createContentSimilarityScorer({ ignoreCase: true });

export async function main(): Promise<Pick<ScoreRecord, 'scorer' | 'score'>> {
  const result = await similarity.run({
    input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
    output: [{ role: 'assistant', content: 'The quick brown cat' }],
  });
  // A scored result has a number (strict): \`notScorable\` is the discriminant (issue 32, item 7).
  if (result.notScorable) return { scorer: result.notScorable.step, score: 0 };
  const n: number = result.score;
  const stub: StubJudge = await startStubJudge({ script: () => reply.json({ score: 1 }) });
  await stub.close();
  const code: string = new TracejudgeError(ErrorCodes.SCORER_MODULE, 'x').code;
  return { scorer: code === '' ? '' : words.id, score: n };
}
`;

/** Each line marked `// TSnnnn` must have exactly that error; no other line may have one. */
const BAD = `import { createContentSimilarityScorer, notAnExport } from 'tracejudge'; // TS2305
import { startStubJudge } from 'tracejudge/testing';

export const wrongOption = createContentSimilarityScorer({ ignoreCase: 'yes' }); // TS2322
export const wrongStub = startStubJudge({ scrip: () => undefined }); // TS2561
export const unused = notAnExport;
export async function unnarrowed(): Promise<number> {
  const r = await createContentSimilarityScorer().run({ input: { inputMessages: [], systemMessages: [] }, output: [] });
  const n: number = r.score; // TS2322
  return n;
}
`;

interface Case {
  name: string;
  compilerOptions: Record<string, string>;
  /** package.json "type" of the consumer. */
  type: 'module' | 'commonjs';
  ext: '.ts' | '.cts';
}

const CASES: Case[] = [
  { name: 'moduleResolution node16 (module node16, an ES module project)', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, type: 'module', ext: '.ts' },
  // The README's claim for CommonJS projects: .ts files there compile to require() (issue 32, item 7: TS1479 before).
  { name: 'moduleResolution node16 from a CommonJS project (module node16, package type commonjs)', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, type: 'commonjs', ext: '.ts' },
  { name: 'moduleResolution bundler (module esnext)', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' }, type: 'module', ext: '.ts' },
  { name: 'moduleResolution nodenext from a CommonJS file (.cts: require of the ES module)', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' }, type: 'commonjs', ext: '.cts' },
  { name: 'moduleResolution node10 (module commonjs; the subpath through "typesVersions")', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' }, type: 'commonjs', ext: '.ts' },
];

/** `file(line,col): error TSnnnn: …` lines of tsc's output, as `file:line TSnnnn`. */
function errorsOf(output: string): string[] {
  const out: string[] = [];
  for (const m of output.matchAll(/^([^\s(]+)\((\d+),\d+\): error (TS\d+):/gm)) out.push(`${m[1]}:${m[2]} ${m[3]}`);
  return out.sort();
}

function markedErrors(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /\/\/ (TS\d+)$/.exec(line);
    if (m) out.push(`${file}:${i + 1} ${m[1]}`);
  });
  return out.sort();
}

let dir: string;
beforeAll(() => {
  dir = dirWithPackage('tj-types-');
});
afterAll(() => removeDir(dir));

describe('types of tracejudge and tracejudge/testing for TypeScript consumers', { timeout: 120_000 }, () => {
  for (const [i, c] of CASES.entries()) {
    it(c.name, async () => {
      const project = join(dir, `p${i}`);
      const good = `good${c.ext}`;
      const bad = `bad${c.ext}`;
      writeFiles(project, {
        'package.json': JSON.stringify({ name: `consumer-${i}`, private: true, type: c.type }),
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            ...c.compilerOptions,
            target: 'ES2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            // As a consumer that has @types/node installed (the package's types mention Node's).
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules/@types')],
          },
          files: [good, bad],
        }),
        [good]: GOOD,
        [bad]: BAD,
        // The consumer's node_modules is the one above the project folder.
      });
      const r = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, env: childEnv(), timeoutMs: 110_000 });
      expect(errorsOf(r.stdout), r.stdout).toEqual(markedErrors(bad, BAD));
      expect(r.code).toBe(2);
    });
  }
});

describe('a CommonJS project with module node16 (issue 32, item 7)', { timeout: 120_000 }, () => {
  it('type-checks the declaration files too (skipLibCheck off), compiles to require() and runs with a scored number', async () => {
    const project = join(dir, 'cjs-run');
    const main = `import { createContentSimilarityScorer } from 'tracejudge';
import { reply } from 'tracejudge/testing';

async function main(): Promise<void> {
  const r = await createContentSimilarityScorer({ ignoreCase: true }).run({
    input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
    output: [{ role: 'assistant', content: 'The quick brown cat' }],
  });
  if (r.notScorable) throw new Error('not scorable: ' + r.notScorable.step);
  const n: number = r.score;
  process.stdout.write(JSON.stringify({ score: n, reply: typeof reply.json }));
}
void main();
`;
    writeFiles(project, {
      'package.json': JSON.stringify({ name: 'consumer-cjs-run', private: true, type: 'commonjs' }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, skipLibCheck: false, outDir: 'out', types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
        files: ['main.ts'],
      }),
      'main.ts': main,
    });
    const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, env: childEnv(), timeoutMs: 110_000 });
    expect(tsc.stdout, tsc.stdout).toBe('');
    expect(tsc.code).toBe(0);
    const js = readFileSync(join(project, 'out/main.js'), 'utf8');
    expect(js).toContain('require("tracejudge")');
    const r = await run(process.execPath, ['out/main.js'], { cwd: project, env: childEnv() });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { score: unknown; reply: unknown };
    expect(typeof out.score).toBe('number');
    expect(out.reply).toBe('function');
  });
});
