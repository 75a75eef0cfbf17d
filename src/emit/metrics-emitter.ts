/**
 * The metrics "emitter": records each score record on `tracejudge.evaluation.score` and
 * `tracejudge.evaluations` (via `recordScore`). Part of the fan-out so every emitted record is counted once;
 * the scorer pipeline must therefore not call `recordScore` itself (it calls `recordSkipped` for skips).
 */
import { recordScore } from '../telemetry/record-score.js';
import type { EmitResult, Emitter, ScoreRecord } from '../model/score-record.js';

export class MetricsEmitter implements Emitter {
  readonly name = 'metrics';
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    for (const r of records) recordScore(r);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
