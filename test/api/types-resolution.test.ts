/**
 * The package's types resolve for TypeScript consumers: a tiny project in the OS temp dir, with
 * node_modules/tracejudge a symlink to the repository (types from dist/, built by `npm run build`, which
 * `pretest` runs), type-checked by the repository's tsc under each module resolution setting. The
 * project has a file that must check with zero errors (values and types from `tracejudge` and
 * `tracejudge/testing`) and a file of deliberate mistakes that must fail exactly where marked, which also
 * proves the types are the package's own and not `any`.
 */
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
  const stub: StubJudge = await startStubJudge({ script: () => reply.json({ score: 1 }) });
  await stub.close();
  const code: string = new TracejudgeError(ErrorCodes.SCORER_MODULE, 'x').code;
  return { scorer: code === '' ? '' : words.id, score: result.score ?? 0 };
}
`;

/** Each line marked `// TSnnnn` must have exactly that error; no other line may have one. */
const BAD = `import { createContentSimilarityScorer, notAnExport } from 'tracejudge'; // TS2305
import { startStubJudge } from 'tracejudge/testing';

export const wrongOption = createContentSimilarityScorer({ ignoreCase: 'yes' }); // TS2322
export const wrongStub = startStubJudge({ scrip: () => undefined }); // TS2561
export const unused = notAnExport;
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
