/**
 * Starts a real Alertmanager (Debian package `prometheus-alertmanager`) for a test: temp config and storage,
 * 127.0.0.1, ephemeral port, clustering off; every alert routed to one webhook, grouped and sent within a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep } from './prometheus-process.js';

export const ALERTMANAGER_BIN = '/usr/bin/prometheus-alertmanager';
export const hasAlertmanager = existsSync(ALERTMANAGER_BIN);

export class AlertmanagerProcess {
  private proc: ChildProcess | undefined;
  private dir = '';
  private stderr = '';
  /** host:port, for Prometheus' `alerting.alertmanagers`. */
  address = '';

  async start(webhookUrl: string): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'tj-am-'));
    const config = [
      'route:',
      '  receiver: webhook',
      '  group_by: [alertname, gen_ai_agent_name, gen_ai_evaluation_name]',
      '  group_wait: 1s',
      '  group_interval: 1s',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: webhook',
      '    webhook_configs:',
      `      - url: ${JSON.stringify(webhookUrl)}`,
      '        send_resolved: false',
    ].join('\n');
    await writeFile(join(this.dir, 'alertmanager.yml'), `${config}\n`);
    const port = await freePort();
    this.address = `127.0.0.1:${port}`;
    this.proc = spawn(
      ALERTMANAGER_BIN,
      [`--config.file=${join(this.dir, 'alertmanager.yml')}`, `--storage.path=${join(this.dir, 'data')}`, `--web.listen-address=${this.address}`, '--cluster.listen-address=', '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.proc.stderr?.on('data', (c: Buffer) => {
      this.stderr = (this.stderr + c.toString('utf8')).slice(-4000);
    });
    for (let i = 0; i < 100; i++) {
      if (this.proc.exitCode !== null) throw new Error(`alertmanager exited: ${this.stderr}`);
      try {
        if ((await fetch(`http://${this.address}/-/ready`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`alertmanager did not become ready: ${this.stderr}`);
  }

  get log(): string {
    return this.stderr;
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

/** One alert as Alertmanager's webhook sends it. */
export interface WebhookAlert {
  status: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** A webhook receiver on 127.0.0.1 that keeps every alert it is sent (bodies above 1 MiB are refused). */
export class WebhookReceiver {
  readonly alerts: WebhookAlert[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 1 << 20) chunks.push(c);
      });
      req.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { alerts?: WebhookAlert[] };
          this.alerts.push(...(body.alerts ?? []));
          res.statusCode = 200;
        } catch {
          res.statusCode = 400;
        }
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}
