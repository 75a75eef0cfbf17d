// Preloaded (`node --import`) into every script that test/mastra/reference.ts runs under the reference's Node 22:
// installs reference-hooks.mjs so bare imports resolve from bench/reference.
import { register } from 'node:module';
import { URL } from 'node:url';

const referenceDir = new URL('../../bench/reference/', import.meta.url);
register('./reference-hooks.mjs', import.meta.url, { data: { referenceDir: referenceDir.href } });
