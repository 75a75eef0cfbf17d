/**
 * The progress bar of long offline commands (`score FILE…`, `score --kafka … --until-end`), drawn by
 * `cli-progress` on stderr and only when stderr is a TTY: done/total, the rate, and the ETA. While the total
 * is not known yet (files still being read, a replay that follows the topic), it shows the count and the
 * rate only. stdout is never touched, so records stay clean.
 */
import cliProgress from 'cli-progress';

interface Payload {
  label: string;
  unit: string;
  /** Whether `total` is meaningful. */
  known: boolean;
  extra: string;
}

function formatRate(perSecond: number): string {
  if (perSecond >= 100) return perSecond.toFixed(0);
  if (perSecond >= 10) return perSecond.toFixed(1);
  return perSecond.toFixed(2);
}

/**
 * Below this much elapsed time the rate is not shown: the first tick comes a few milliseconds after the start,
 * when a batch of 512 already counted would read as "512000/s ETA 0s".
 */
export const MIN_RATE_WINDOW_S = 1;

/** The rate per second after `elapsedS` seconds, or undefined while too little time has passed to tell. */
export function rateOf(value: number, elapsedS: number): number | undefined {
  return elapsedS >= MIN_RATE_WINDOW_S ? value / elapsedS : undefined;
}

/** One line: `score [=====-----] 120/400 traces  30%  41.2/s  ETA 7s  (3 records)`; `-/s  ETA ?` in the first second, unless finished. */
export const format: cliProgress.GenericFormatter = (options, params, payload: Payload) => {
  const elapsedS = ((params.stopTime ?? Date.now()) - params.startTime) / 1000;
  // Finished: the average over the whole run is known, however short it was.
  const finished = payload.known && params.total > 0 && params.value >= params.total;
  const rate = finished && elapsedS > 0 ? params.value / elapsedS : rateOf(params.value, elapsedS);
  const rateText = rate === undefined ? '-/s' : `${formatRate(rate)}/s`;
  const extra = payload.extra ? `  (${payload.extra})` : '';
  if (!payload.known || params.total <= 0) return `${payload.label} ${params.value} ${payload.unit}  ${rateText}${extra}`;
  const bar = cliProgress.Format.BarFormat(params.progress, options);
  const left = Math.max(0, params.total - params.value);
  const eta = rate !== undefined && rate > 0 ? cliProgress.Format.TimeFormat(Math.round(left / rate), options, 1) : '?';
  const pct = Math.floor(params.progress * 100);
  return `${payload.label} [${bar}] ${params.value}/${params.total} ${payload.unit}  ${pct}%  ${rateText}  ETA ${eta}${extra}`;
};

export class Progress {
  readonly #enabled: boolean;
  #bar: cliProgress.SingleBar | undefined;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.#enabled = stream.isTTY === true;
  }

  /** Whether anything is drawn (stderr is a TTY). */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Show `done` of `total` (undefined or 0: unknown yet) `unit`s, with an optional note after it. */
  update(done: number, total: number | undefined, unit: string, extra = ''): void {
    if (!this.#enabled) return;
    const known = total !== undefined && total > 0;
    const payload: Payload = { label: this.label, unit, known, extra };
    if (!this.#bar) {
      this.#bar = new cliProgress.SingleBar({ format, stream: this.stream, hideCursor: true, clearOnComplete: true, barsize: 24, fps: 10, linewrap: false }, cliProgress.Presets.legacy);
      this.#bar.start(known ? total : 0, done, payload);
      return;
    }
    if (known) this.#bar.setTotal(total);
    this.#bar.update(done, payload);
  }

  /** Remove the bar (safe when nothing was drawn, and twice). */
  done(): void {
    const bar = this.#bar;
    this.#bar = undefined;
    bar?.stop();
  }
}
