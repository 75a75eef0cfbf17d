/**
 * The hooks module handed to `module.register` (Node 20) by `installSelfResolution`. Node runs it on its
 * loader thread, so it must be plain JavaScript that Node can load by itself: it is kept as source text and
 * registered as a `data:` URL, which works the same from `dist/`, from source under tsx and under vitest
 * (a `.ts` hooks file would need a TypeScript loader on that thread; a `.js` file beside this one does not
 * exist when running from source). It imports nothing.
 *
 * Behaviour: a bare `<name>` or `<name>/...` specifier is first resolved as usual; only when that fails
 * with ERR_MODULE_NOT_FOUND is it resolved again with the package's own package.json as the parent, which
 * is Node's package self-reference: the specifier goes through the package's `exports`, with the
 * importer's conditions. Every other specifier goes straight to the next hook.
 */

/** What `initialize` receives (`register(..., { data })`). */
export interface AsyncHooksData {
  /** Package name, e.g. `tracejudge`. */
  name: string;
  /** `file:` URL of the package's package.json. */
  packageJsonURL: string;
}

export const ASYNC_HOOKS_SOURCE = `
const registered = [];
export function initialize(data) {
  registered.push(data);
}
export async function resolve(specifier, context, nextResolve) {
  const own = registered[0];
  if (!own || (specifier !== own.name && !specifier.startsWith(own.name + '/'))) return nextResolve(specifier, context);
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    if (err === null || typeof err !== 'object' || err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return nextResolve(specifier, { ...context, parentURL: own.packageJsonURL });
  }
}
`;
