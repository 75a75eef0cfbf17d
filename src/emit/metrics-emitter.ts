/**
 * The metrics "emitter": records each score record on `tracejudge.evaluation.score` and
 * `tracejudge.evaluations` (via `Telemetry.recordScore`). Part of the fan-out so every emitted record is
 * counted once; the pipeline therefore never counts records itself (it counts skips).
 */
import type { ScoreRecord } from '../model/score-record.js';
import type { Telemetry } from '../telemetry/instruments.js';
import type { EmitResult, Emitter } from './emitter.js';

export class MetricsEmitter implements Emitter {
  readonly name = 'metrics';
  constructor(private readonly telemetry: Telemetry) {}
  start(): Promise<void> {
    return Promise.resolve();
  }
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    for (const r of records) this.telemetry.recordScore(r);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
