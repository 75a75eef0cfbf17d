/**
 * Module hooks for the bench: an import of the product's TypeScript source (`src/**.ts`) loads its built
 * JavaScript (`dist/**.js`, `npm run build`) instead, so the benchmarks measure the code that ships. Under
 * tsx the source is transformed with function-name wrappers on every closure, which the built code does
 * not have and which cost several percent on the hot paths. Bench files themselves still run through tsx.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '/')).href;
const SRC = `${ROOT}src/`;
const DIST = `${ROOT}dist/`;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const url = resolved.url;
  if (url.startsWith(SRC) && url.endsWith('.ts')) {
    const built = `${DIST}${url.slice(SRC.length, -'.ts'.length)}.js`;
    if (existsSync(fileURLToPath(built))) return { url: built, format: 'module', shortCircuit: true };
  }
  return resolved;
}
