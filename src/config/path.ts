/** Config key paths as they appear in error messages. */

/** Format a zod path as `a.b["billing-*"].rate` or `a.list[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const s = String(seg);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += out ? `.${s}` : s;
      else out += `[${JSON.stringify(s)}]`;
    }
  }
  return out;
}
