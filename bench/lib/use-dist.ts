/**
 * `node --import tsx --import ./bench/lib/use-dist.ts …`: registers bench/lib/dist-hooks.mjs (imports of
 * src/*.ts load dist/*.js). bench/run.ts builds dist first and passes this to every child it starts.
 */
import { register } from 'node:module';

register('./dist-hooks.mjs', import.meta.url);
