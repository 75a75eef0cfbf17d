// The two ends of a reference script (see test/mastra/reference.ts): one JSON value in on stdin, one out on stdout.
import { Buffer } from 'node:buffer';
import process from 'node:process';

/** The JSON value the test wrote to stdin. */
export async function readInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Writes `value` as JSON to stdout; `undefined` anywhere in it becomes `null`. */
export function writeOutput(value) {
  process.stdout.write(JSON.stringify(value === undefined ? null : value, (_key, v) => (v === undefined ? null : v)));
}
