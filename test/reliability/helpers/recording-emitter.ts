/** An in-memory emitter that keeps every score record, indexed by trace id (what was scored, and when). */
import type { ScoreRecord } from '../../../src/model/score-record.js';
import type { EmitResult, Emitter } from '../../../src/emit/emitter.js';

export interface Received {
  record: ScoreRecord;
  /** ms since epoch when the record reached the emitter. */
  at: number;
}

export class RecordingEmitter implements Emitter {
  readonly name = 'recording';
  readonly received: Received[] = [];
  private readonly byTraceId = new Map<string, ScoreRecord[]>();

  start(): Promise<void> {
    return Promise.resolve();
  }

  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    const at = Date.now();
    for (const record of records) {
      this.received.push({ record, at });
      const list = this.byTraceId.get(record.traceId);
      if (list) list.push(record);
      else this.byTraceId.set(record.traceId, [record]);
    }
    return Promise.resolve({ code: 'success' });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  /** Records of one trace (empty when none arrived). */
  forTrace(traceId: string): readonly ScoreRecord[] {
    return this.byTraceId.get(traceId) ?? [];
  }

  get count(): number {
    return this.received.length;
  }
}
