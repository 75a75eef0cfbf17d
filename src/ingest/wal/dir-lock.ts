/**
 * One owner per log directory: two services appending to the same segments would corrupt each other's
 * records. The lock is a file holding the owner's pid and its process start time, created exclusively. A
 * lock left by a process that no longer runs (a crash) is taken over, and so is one left by a dead process
 * that had our pid (a container restart gives the new process the old one's pid): its start time differs
 * from ours. A lock with our pid and our start time is held by another service in this process.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const LOCK_FILE = 'lock';

/** This process: its pid and its start time (ms since the epoch, to the microsecond). */
const owner = (): string => `${process.pid} ${performance.timeOrigin.toFixed(3)}`;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock or throws naming the process that holds it; returns the release function. */
export function lockDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${owner()}\n`, { flag: 'wx' });
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: string;
    try {
      holder = readFileSync(path, 'utf8').trim();
    } catch {
      continue;
    }
    const pid = Number(holder.split(' ')[0]);
    const live = Number.isSafeInteger(pid) && pid > 0 && (pid === process.pid ? holder === owner() : running(pid));
    if (live) throw new Error(`write-ahead log directory ${dir} is in use by process ${pid} (${path}); each tracejudge process needs its own sources.otlp.wal.dir`);
    try {
      unlinkSync(path);
    } catch {
      // another process took it over first; try again
    }
  }
  throw new Error(`cannot take the write-ahead log lock ${path}`);
}
