#!/usr/bin/env node
/**
 * Writes a CommonJS twin of every declaration file in dist/: `x.d.ts` → `x.d.cts`, with relative `./y.js`
 * specifiers rewritten to `./y.cjs` (which TypeScript resolves to `y.d.cts`). The package's "require"
 * export condition points TypeScript at these, so a CommonJS project with `module`/`moduleResolution`
 * `node16` can `import … from 'tracejudge'` (compiled to require()) without TS1479. The JavaScript stays
 * one ES module build: Node ≥ 20.19 loads it with require() (require(esm)), which returns the module
 * namespace, whose named exports are what these declarations describe.
 *   node scripts/build/cjs-types.mjs [distDir]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dist = process.argv[2] ?? 'dist';
const RELATIVE_JS = /((?:\bfrom|\bimport)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.js\2/g;

function walk(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) n += walk(path);
    else if (e.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8')
        .replace(RELATIVE_JS, (_m, head, q, spec) => `${head}${q}${spec}.cjs${q}`)
        .replace(/^\/\/# sourceMappingURL=.*$/m, '');
      writeFileSync(path.replace(/\.d\.ts$/, '.d.cts'), text);
      n++;
    }
  }
  return n;
}

const count = walk(dist);
if (count === 0) {
  process.stderr.write(`cjs-types: no .d.ts files under ${dist}\n`);
  process.exit(1);
}
