/**
 * `tracejudge demo [--duration SECONDS] [-c FILE]`: see agents judged within a minute, with no key and no
 * services. It builds the same service as `serve` (the embedded default, or `-c FILE`) on free loopback
 * ports, drives the built-in sample agents (src/demo) through the real AI SDK with scripted mock models,
 * exports their traces over real OTLP to the service, and shows a live summary in the terminal (per agent:
 * runs, per-scorer mean and fail rate, the last failing run with its reason) plus where to point an app and
 * where the live page is. With `--duration` it ends by itself; otherwise at Ctrl-C (SIGINT) or SIGTERM.
 * Either way it scores what is buffered, prints the final summary and exits 0. With OPENAI_API_KEY set, the
 * default config's judge scorers take part (at the default 10% judge sampling).
 */
import type { RecordSender } from '../../emit/buffered-emitter.js';
import type { EmitResult } from '../../emit/emitter.js';
import type { Config } from '../../config/schema.js';
import { renderDemoSummary, type DemoView } from '../../demo/summary.js';
import { SkippedRuns } from '../../pipeline/skipped-runs.js';
import { Tally } from '../../live/tally.js';
import { buildService } from '../../service/build.js';
import { createSettings } from '../../service/settings.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import { terminalWidth } from '../table.js';
import { DEMO } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

/** The records' JSON lines are not what a person watching the demo wants: the summary shows them. */
class QuietStdout implements RecordSender {
  readonly name = 'stdout';
  send(): Promise<EmitResult> {
    return Promise.resolve({ code: 'success' });
  }
}

/** `--duration` in seconds, or undefined; a usage error names the bad value. */
export function parseDuration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(n > 0) || n > 7 * 24 * 3600) throw usageError(`demo: --duration must be a number of seconds above 0 (at most a week), got ${JSON.stringify(value)}`);
  return n;
}

/**
 * The config the demo runs: the listeners on free loopback ports, the live page on, and traces decided after
 * at most 1 s of quiet (an AI SDK run arrives in one export), so scores show up quickly.
 */
export function demoConfigOf(config: Config): Config {
  const { otlp } = config.sources;
  return {
    ...config,
    assembly: { ...config.assembly, decisionWaitMs: Math.min(config.assembly.decisionWaitMs, 1000) },
    sources: {
      ...config.sources,
      otlp: {
        ...otlp,
        http: { ...otlp.http, enabled: true, host: '127.0.0.1', port: 0 },
        grpc: { ...otlp.grpc, host: '127.0.0.1', port: 0 },
      },
    },
    emit: { ...config.emit, prometheus: { ...config.emit.prometheus, enabled: true, host: '127.0.0.1', port: 0 } },
    live: { ...config.live, enabled: true },
  };
}

type StopReason = 'duration' | 'SIGINT' | 'SIGTERM';

/**
 * When to stop: SIGINT/SIGTERM from the moment it is made (a Ctrl-C during the start is not lost), or the end
 * of a duration. Later signals are swallowed until {@link Stopper.dispose}: the stop is already bounded.
 */
class Stopper {
  #reason: StopReason | undefined;
  #wake: ((r: StopReason) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #onInt = (): void => this.#stop('SIGINT');
  readonly #onTerm = (): void => this.#stop('SIGTERM');

  constructor() {
    process.on('SIGINT', this.#onInt);
    process.on('SIGTERM', this.#onTerm);
  }

  #stop(reason: StopReason): void {
    this.#reason ??= reason;
    clearTimeout(this.#timer);
    this.#wake?.(this.#reason);
  }

  /** Resolves at the first signal, or after `durationS` (never without one). */
  wait(durationS: number | undefined): Promise<StopReason> {
    if (this.#reason) return Promise.resolve(this.#reason);
    return new Promise((resolve) => {
      this.#wake = resolve;
      if (durationS !== undefined) this.#timer = setTimeout(() => this.#stop('duration'), durationS * 1000);
    });
  }

  dispose(): void {
    clearTimeout(this.#timer);
    process.off('SIGINT', this.#onInt);
    process.off('SIGTERM', this.#onTerm);
  }
}

/** The sample agents drive at least this long, however long the start took. */
const MIN_DRIVE_S = 3;

export async function demoCommand(args: readonly string[], cli: CliContext): Promise<number> {
  // `--duration` counts from the process start: the whole command takes about that long (plus the final scoring).
  const started = Math.min(Date.now(), Math.round(performance.timeOrigin));
  const { values, positionals } = parseCommandArgs(DEMO, args);
  if (positionals.length > 0) throw usageError(`demo: unexpected argument ${JSON.stringify(positionals[0])}`);
  const durationS = parseDuration(values.duration);
  const stopper = new Stopper();
  try {
    return await runDemo(cli, values.config, durationS, started, stopper);
  } finally {
    stopper.dispose();
  }
}

async function runDemo(cli: CliContext, configFile: string | undefined, durationS: number | undefined, started: number, stopper: Stopper): Promise<number> {
  const { config: loaded, path, scorers } = loadCliConfig(configFile, cli);
  const config = demoConfigOf(loaded);
  const settings = createSettings(config, { logger: cli.logger, secrets: cli.secrets, scorers });
  const skipped = new SkippedRuns();
  const service = await buildService(config, settings, { source: { kind: 'configured' }, stdout: new QuietStdout(), watchConfig: false, observers: [skipped], ...(path ? { configPath: path } : {}) });
  await service.start();

  const ports = service.ports();
  const otlpHttp = `http://127.0.0.1:${ports.http ?? 0}`;
  const token = config.sources.otlp.auth.bearerToken;
  const livePage = service.live && ports.metrics !== undefined ? `http://127.0.0.1:${ports.metrics}/` : undefined;
  const notes: string[] = [];
  if (token !== undefined) notes.push('Auth is on (sources.otlp.auth.bearerToken): send "Authorization: Bearer <token>"; the live page asks for it as the password.');
  if (settings.judges.enabled) notes.push('Judge scorers are on (a judge API key is set): judge sampling follows the config (default 10% of runs).');
  else notes.push('Code scorers only; set OPENAI_API_KEY to add the judge scorers.');
  // Loaded here, not with the CLI: the demo agents' AI SDK and OpenTelemetry SDK are no weight for `serve`.
  const { DemoDriver } = await import('../../demo/driver.js');
  const driver = new DemoDriver({ otlpUrl: otlpHttp, ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}), logger: cli.logger });
  const totals = service.live?.totals ?? new Tally();
  const view = (phase: DemoView['phase']): DemoView => ({
    elapsedS: (Date.now() - started) / 1000,
    ...(durationS !== undefined ? { durationS } : {}),
    sent: driver.total,
    otlpHttp,
    ...(ports.grpc !== undefined ? { otlpGrpc: `127.0.0.1:${ports.grpc}` } : {}),
    ...(livePage ? { livePage } : {}),
    notes,
    agents: driver.agents.map((a) => a.name),
    scorers: service.scorers.map((s) => s.name),
    tally: totals,
    skipped,
    phase,
  });

  // On a terminal the summary redraws in place (log-update); otherwise a status line every few seconds. A
  // terminal that reports 0 rows (some CI and container ptys) gets the latter: log-update would clip every line.
  const tty = process.stdout.isTTY === true && (process.stdout.rows ?? 0) > 0;
  const screen = tty ? (await import('log-update')).createLogUpdate(process.stdout, { showCursor: false }) : undefined;
  const draw = (phase: DemoView['phase']): void => screen?.(renderDemoSummary(view(phase), terminalWidth(process.stdout)));
  if (!tty) {
    const head = renderDemoSummary(view('running'), terminalWidth(process.stdout)).split('\n');
    await cli.output.record(head.slice(0, 3 + notes.length).join('\n'));
  }
  let lastStatus = 0;
  const ticker = setInterval(() => {
    if (tty) return draw('running');
    if (Date.now() - lastStatus < 5000) return;
    lastStatus = Date.now();
    const runs = totals.agents().reduce((n, [, a]) => n + a.runs, 0);
    void cli.output.record(`demo: ${Math.floor((Date.now() - started) / 1000)} s, ${driver.total} runs sent, ${runs} scored`);
  }, 500);
  driver.start();
  draw('running');

  const reason = await stopper.wait(durationS === undefined ? undefined : Math.max(MIN_DRIVE_S, durationS - (Date.now() - started) / 1000));
  try {
    draw('stopping');
    if (!tty) await cli.output.record(`demo: stopping (${reason === 'duration' ? `${durationS ?? 0} s passed` : reason}); scoring what is buffered`);
    await driver.stop(Date.now() + 5000);
    const outcome = await service.shutdown(Date.now() + config.telemetry.shutdownTimeoutMs);
    clearInterval(ticker);
    const final = renderDemoSummary(view('final'), terminalWidth(process.stdout));
    if (screen) {
      screen(final);
      screen.done();
    } else await cli.output.record(final);
    if (!outcome.complete) cli.output.error(`tracejudge: demo: ${outcome.pendingEvaluations} evaluation(s) and ${outcome.unfinishedTraces} trace(s) were still unfinished at the shutdown deadline`);
    if (driver.failed > 0) cli.output.error(`tracejudge: demo: ${driver.failed} sample agent run(s) failed (see the log)`);
    return 0;
  } finally {
    clearInterval(ticker);
  }
}
