/** The licence `package.json` names is in the repository and in the package `npm pack` makes (issue #32). */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

describe('LICENSE', () => {
  it('is the Apache License 2.0 text, as package.json says', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toBe('Apache-2.0');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text.trimStart().startsWith('Apache License')).toBe(true);
    expect(text).toContain('Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text).toContain('http://www.apache.org/licenses/LICENSE-2.0');
  });

  it('is in the tarball npm pack makes', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 64 << 20 });
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    expect(pack?.files.map((f) => f.path)).toContain('LICENSE');
  }, 60_000);
});
