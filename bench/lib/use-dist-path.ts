/** Path of bench/lib/use-dist.ts, for `--import` in the child processes the benches start (they measure dist/ too). */
import { fileURLToPath } from 'node:url';

export const USE_DIST = fileURLToPath(new URL('./use-dist.ts', import.meta.url));
