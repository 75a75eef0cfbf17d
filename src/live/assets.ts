/**
 * The live page's static files (HTML, CSS, a little JS), shipped in the package's `assets/live/` folder and
 * read once when the service is built: no CDN, no external asset, no build step. `src/live` and `dist/live`
 * sit at the same depth below the package root, so the same relative path works from the sources (tests)
 * and from an installed package.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const LIVE_ASSETS_DIR = fileURLToPath(new URL('../../assets/live/', import.meta.url));

export interface LiveAssets {
  html: Buffer;
  css: Buffer;
  js: Buffer;
}

/** Read the page's files; throws naming the missing file (a broken install). */
export async function loadLiveAssets(dir: string = LIVE_ASSETS_DIR): Promise<LiveAssets> {
  const read = async (name: string): Promise<Buffer> => {
    const path = `${dir.endsWith('/') ? dir : `${dir}/`}${name}`;
    try {
      return await readFile(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new Error(`live page: cannot read ${path} (${code}); the package's assets/live folder is missing (set live.enabled: false to run without the page)`, { cause: err });
    }
  };
  const [html, css, js] = await Promise.all([read('index.html'), read('live.css'), read('live.js')]);
  return { html, css, js };
}
