/** Starts a real Prometheus (Debian package) for a test: temp config and storage, 127.0.0.1, ephemeral port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';
export const PROMTOOL_BIN = '/usr/bin/promtool';
export const hasPrometheus = existsSync(PROMETHEUS_BIN);
export const hasPromtool = existsSync(PROMTOOL_BIN);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface PromResult {
  metric: Record<string, string>;
  value: [number, string];
}

/** Extra settings for {@link PrometheusProcess.start}. */
export interface PrometheusOptions {
  /** Extra command-line flags, e.g. `--enable-feature=exemplar-storage`. */
  flags?: readonly string[];
  /** Alertmanagers (host:port) to send alerts to. */
  alertmanagers?: readonly string[];
  /** `global.external_labels`. */
  externalLabels?: Readonly<Record<string, string>>;
}

export class PrometheusProcess {
  private proc: ChildProcess | undefined;
  private dir = '';
  private stderr = '';
  url = '';

  /** Start scraping `target` (host:port) every second, loading `ruleFiles`. */
  async start(target: string, ruleFiles: readonly string[], options: PrometheusOptions = {}): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'tj-prom-'));
    const labels = Object.entries(options.externalLabels ?? {});
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      ...(labels.length > 0 ? ['  external_labels:', ...labels.map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)] : []),
      ...(options.alertmanagers?.length
        ? ['alerting:', '  alertmanagers:', '    - static_configs:', `        - targets: [${options.alertmanagers.map((a) => JSON.stringify(a)).join(', ')}]`]
        : []),
      'rule_files:',
      ...ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
      'scrape_configs:',
      '  - job_name: tracejudge',
      '    metrics_path: /metrics',
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
    ].join('\n');
    await writeFile(join(this.dir, 'prometheus.yml'), `${config}\n`);
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.proc = spawn(
      PROMETHEUS_BIN,
      [`--config.file=${join(this.dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(this.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn', ...(options.flags ?? [])],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.proc.stderr?.on('data', (c: Buffer) => {
      this.stderr = (this.stderr + c.toString('utf8')).slice(-4000);
    });
    for (let i = 0; i < 100; i++) {
      if (this.proc.exitCode !== null) throw new Error(`prometheus exited: ${this.stderr}`);
      try {
        const res = await fetch(`${this.url}/-/ready`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`prometheus did not become ready: ${this.stderr}`);
  }

  async query(expr: string): Promise<PromResult[]> {
    const res = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { status: string; error?: string; data?: { result: PromResult[] } };
    if (body.status !== 'success') throw new Error(`query ${expr}: ${body.error ?? res.status}`);
    return body.data?.result ?? [];
  }

  /** Poll `expr` until `accept` says yes (bounded: `tries` × 250 ms). */
  async waitFor(expr: string, accept: (r: PromResult[]) => boolean, tries = 80): Promise<PromResult[]> {
    let last: PromResult[] = [];
    for (let i = 0; i < tries; i++) {
      last = await this.query(expr);
      if (accept(last)) return last;
      await sleep(250);
    }
    throw new Error(`timed out waiting for ${expr}; last result ${JSON.stringify(last)}; stderr ${this.stderr}`);
  }

  async api<T>(path: string): Promise<T> {
    const res = await fetch(`${this.url}${path}`);
    return (await res.json()) as T;
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (p && p.exitCode === null) {
      const exited = new Promise<void>((r) => p.once('exit', () => r()));
      p.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (p.exitCode === null) p.kill('SIGKILL');
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
