/**
 * One process per log directory: two services appending to the same segments would corrupt each other's
 * records. The lock is a file holding the owner's pid, created exclusively; a lock left by a process that
 * no longer runs (a crash) is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'lock';

/** Lock files this process holds (a container restart can give the new process the dead one's pid). */
const held = new Set<string>();

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
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      held.add(path);
      return () => {
        held.delete(path);
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let pid = NaN;
    try {
      pid = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue;
    }
    const live = Number.isSafeInteger(pid) && pid > 0 && (pid === process.pid ? held.has(path) : running(pid));
    if (live) throw new Error(`write-ahead log directory ${dir} is in use by process ${pid} (${path}); each tracejudge process needs its own sources.otlp.wal.dir`);
    try {
      unlinkSync(path);
    } catch {
      // another process took it over first; try again
    }
  }
  throw new Error(`cannot take the write-ahead log lock ${path}`);
}
