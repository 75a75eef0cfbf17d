/** Machine and revision facts printed with every bench run. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  node: string;
  commit: string;
  dirty: boolean;
  loadAverage: string;
  date: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** CPU model, cores, RAM, Node version, git commit (and whether bench-relevant files were modified). */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    // RESULTS.md is this run's own output: a previous run's uncommitted table is not a change to what is measured.
    dirty: git(['status', '--porcelain', '--untracked-files=no', '--', 'src', 'bench', ':(exclude)bench/RESULTS.md']) !== '',
    loadAverage: loadavg().map((n) => n.toFixed(2)).join(' '),
    date: new Date().toISOString(),
  };
}
