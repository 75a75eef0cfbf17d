/** stdout carries only records; stderr carries one-line errors (logs go through pino, also to stderr). */

/** Write one record line to stdout. */
export function writeRecord(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Write one line to stderr. */
export function writeError(line: string): void {
  process.stderr.write(`${line}\n`);
}
