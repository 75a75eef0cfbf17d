/** Score records as JSON lines on stdout (the default emitter; logs go to stderr so stdout stays parseable). */
import type { Writable } from 'node:stream';
import { errorMessage } from '../errors.js';
import type { RecordSender } from './buffered-emitter.js';
import { toJsonLine } from './jsonl-file.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult } from './emitter.js';

export class StdoutSender implements RecordSender {
  readonly name = 'stdout';
  constructor(private readonly out: Writable = process.stdout) {}

  send(records: readonly ScoreRecord[]): Promise<EmitResult> {
    const chunk = records.map(toJsonLine).join('');
    return new Promise((resolve) => {
      if (this.out.destroyed || !this.out.writable) {
        resolve({ code: 'permanent', error: new Error('stdout is closed') });
        return;
      }
      // The callback fires once the chunk is handed to the OS (after any back-pressure), or with the error.
      this.out.write(chunk, 'utf8', (err) => {
        if (!err) resolve({ code: 'success' });
        else {
          const code = (err as { code?: unknown }).code;
          const error = new Error(`stdout write failed: ${errorMessage(err)}`);
          resolve(code === 'EAGAIN' ? { code: 'retryable', error } : { code: 'permanent', error });
        }
      });
    });
  }
}
