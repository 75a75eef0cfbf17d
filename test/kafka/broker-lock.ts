/**
 * A cross-process lock for the test files that use the shared broker on 127.0.0.1:9092. The broker restart
 * test stops the broker; holding this lock for a whole file keeps the Kafka test files of one `vitest run`
 * (which runs files in parallel workers) from overlapping. A lock left by a dead process is broken.
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'tracejudge-kafka-broker-tests.lock');

function holderAlive(): boolean {
  try {
    const pid = Number(readFileSync(LOCK, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is not ours.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the lock, waiting at most `timeoutMs`; resolves with the release function. */
export async function acquireBrokerLock(timeoutMs = 300_000): Promise<() => void> {
  const end = Date.now() + timeoutMs;
  // Written first, then hard-linked into place: the lock file never exists without its pid.
  const mine = `${LOCK}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  for (;;) {
    try {
      linkSync(mine, LOCK);
      unlinkSync(mine);
      return () => {
        try {
          if (readFileSync(LOCK, 'utf8') === String(process.pid)) unlinkSync(LOCK);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!holderAlive()) {
        try {
          unlinkSync(LOCK);
        } catch {
          // another waiter broke it first
        }
        continue;
      }
      if (Date.now() > end) {
        unlinkSync(mine);
        throw new Error(`another Kafka test file held ${LOCK} for more than ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
