/**
 * The version of this tracejudge package (package.json `version`): what `tracejudge --version` prints and the
 * `service.version` resource attribute of everything the service exports. Read from the package.json two levels
 * above this file (the same from `src/service/` under tsx and from `dist/service/` once built).
 *
 * Nothing is kept between calls (no module state): each call reads the file, which callers do once — the CLI
 * for `--version`, `createSettings` once per service for its resource.
 */
import { readFileSync } from 'node:fs';

/** The package version, e.g. `0.1.0`; throws when package.json cannot be read or has no version. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string' || pkg.version === '') throw new Error('package.json has no version');
  return pkg.version;
}
