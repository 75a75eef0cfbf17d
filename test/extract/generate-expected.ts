/**
 * Writes test/fixtures/expected/<fixture>.json from the current extractor. Run once per new fixture, then
 * READ the file and check it by hand against the fixture spans before committing it:
 *   node --import tsx test/extract/generate-expected.ts [fixture ...]
 */
import { writeFileSync } from 'node:fs';
import { expectedPath, fixtureNames, runsOf, type ExpectedFile } from './fixture-io.js';

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : fixtureNames();
for (const name of names) {
  const file: ExpectedFile = { fixture: `test/fixtures/traces/${name}.json`, runs: runsOf(name) };
  writeFileSync(expectedPath(name), `${JSON.stringify(file, null, 2)}\n`);
  process.stderr.write(`wrote ${expectedPath(name)} (${file.runs.length} run(s))\n`);
}
