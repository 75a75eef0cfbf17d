/**
 * The command line's two streams: stdout carries only records; stderr carries one-line errors (logs go
 * through pino, also to stderr).
 *
 * Writes to a pipe are asynchronous in Node: a process that exits while they are queued loses them. So a
 * record write honours back-pressure (it resolves once the stream takes more), `drain` waits until
 * everything written was handed to the OS, which `main` does before the process exits, and a reader that
 * goes away (`| head`) ends the output quietly: later writes are dropped and the command still exits 0.
 */
import type { Writable } from 'node:stream';

export class RecordOutput {
  #closed = false;
  /** One wait for 'drain' shared by every writer that found the stream full. */
  #full: Promise<void> | undefined;

  constructor(
    readonly out: Writable = process.stdout,
    readonly err: Writable = process.stderr,
  ) {
    out.on('error', (e: NodeJS.ErrnoException) => {
      // EPIPE: the reader closed early. Anything else also ends the output; the next drain reports nothing.
      this.#closed = true;
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') this.error(`tracejudge: stdout: ${e.message}`);
    });
  }

  /** True once the reader went away (later records are dropped). */
  get closed(): boolean {
    return this.#closed || this.out.destroyed;
  }

  /** Write one record line; resolves when the stream can take more (at once unless it is full). */
  record(line: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const more = this.out.write(`${line}\n`);
    if (more && !this.#full) return Promise.resolve();
    this.#full ??= new Promise((resolve) => {
      const done = (): void => {
        this.out.off('drain', done);
        this.out.off('close', done);
        this.out.off('error', done);
        this.#full = undefined;
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
      this.out.on('error', done);
    });
    return this.#full;
  }

  /** Resolves when everything written so far has been handed to the OS (or the reader went away). */
  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.out.once('error', () => resolve());
      this.out.write('', () => resolve());
    });
  }

  /** One line on stderr. */
  error(line: string): void {
    this.err.write(`${line}\n`);
  }
}
