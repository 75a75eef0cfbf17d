/**
 * Startup recovery: every record of the write-ahead log at or above its checkpoint goes back through the
 * decoders and into the assembler, tracked until settled, before the receivers open. Records acknowledged
 * before a crash but not yet scored are scored now; some may have been scored already (duplicates, with
 * the same evaluation ids, as with a Kafka redelivery).
 */
import type { ComponentSettings } from '../../component.js';
import { DecodeError, errorMessage } from '../../errors.js';
import type { OtlpIngest } from '../otlp/ingest.js';
import type { WalRecovery, WriteAheadLog } from './log.js';

export interface ReplayOptions {
  /** Longest wait for the assembler to take one record while it is full; then the record is left for the next start. */
  maxWaitPerRecordMs?: number;
}

/**
 * Replays the log through `ingest` (into the assembler, already ticking so that back-pressure clears),
 * with the receivers' decoders and counters.
 */
export async function replayWal(wal: WriteAheadLog, ingest: OtlpIngest, settings: ComponentSettings, options: ReplayOptions = {}): Promise<WalRecovery & { left: number }> {
  const log = settings.logger.child({ component: 'wal' });
  const maxWait = options.maxWaitPerRecordMs ?? 300_000;
  let left = 0;
  let stopped = false;
  const result = await wal.recover(async (record) => {
    if (stopped) {
      left++;
      return;
    }
    const settle = (): void => wal.settle(record.seq);
    const until = Date.now() + maxWait;
    for (;;) {
      let offered: ReturnType<OtlpIngest['offerRecord']>;
      try {
        offered = ingest.offerRecord(record.kind, record.payload, settle);
      } catch (err) {
        if (!(err instanceof DecodeError)) throw err;
        log.warn({ seq: record.seq, kind: record.kind, err: errorMessage(err) }, 'write-ahead log: record no longer decodes; skipped');
        settle();
        return;
      }
      if (offered.items === 0) settle();
      if (offered.outcome.kind === 'accepted') {
        settings.telemetry.instruments.walReplayed.add(1);
        return;
      }
      if (offered.outcome.kind === 'wal_failed' || offered.outcome.reason === 'shutting_down' || Date.now() >= until) {
        log.error({ seq: record.seq, reason: offered.outcome.kind === 'wal_failed' ? 'wal_failed' : offered.outcome.reason }, 'write-ahead log: replay stopped; the rest is kept for the next start');
        stopped = true;
        left++;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.min(1000, offered.outcome.kind === 'refused' ? offered.outcome.retryAfterMs : 1000)));
    }
  });
  return { ...result, left };
}
