// Module resolution hook for scripts run by test/mastra/reference.ts: a bare specifier imported from outside
// bench/reference (`@mastra/evals/scorers/utils`, `zod`) resolves as if it were imported from bench/reference,
// so scripts see the pinned reference packages, never the project's own node_modules. Everything else
// (relative paths, URLs, node: builtins, imports made by the reference packages themselves) resolves as usual.
import { isBuiltin } from 'node:module';
import { URL } from 'node:url';

let referenceDir = '';
let referenceParent = '';

export function initialize(data) {
  referenceDir = data.referenceDir;
  referenceParent = new URL('package.json', referenceDir).href;
}

const NOT_BARE = /^(?:\.{0,2}\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/;

export async function resolve(specifier, context, nextResolve) {
  const fromReference = (context.parentURL ?? '').startsWith(referenceDir);
  if (!fromReference && !NOT_BARE.test(specifier) && !isBuiltin(specifier)) {
    return nextResolve(specifier, { ...context, parentURL: referenceParent });
  }
  return nextResolve(specifier, context);
}
