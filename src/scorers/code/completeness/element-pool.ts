/**
 * Worker threads for the completeness parse. `compromise` takes ~2 ms per text and completeness is a
 * default scorer: parsed on the event loop it caps a process at a few hundred runs per second and stalls
 * the receivers for the length of every parse. The pool parses on other cores; the event loop only
 * posts the text and awaits the elements. Each worker has its own compromise instance, which gets the
 * exact speed-ups of `speedups.ts` (the main thread's compromise is left as it ships).
 *
 * Workers start on first use, are `unref`ed (they never keep the process alive) and are replaced when
 * one dies: the texts it held fail (the evaluation becomes an error record) and the next parse starts a
 * new worker.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Component } from '../../../component.js';
import type { ElementReply, ElementRequest } from './element-worker.js';

interface Pending {
  resolve: (elements: string[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Workers for `workers: auto`: one per core, at most 4. A worker takes CPU only while it parses, and the OS
 * shares the cores with the event loop; with one core fewer, the parse of a run's input and output queued
 * behind each other on a 2-core machine while the event loop sat idle (bench: pipeline with completeness).
 */
export function autoWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** `workerData` of the threads this pool starts; the worker module serves only in such a thread. */
const WORKER_DATA = { role: 'tracejudge-completeness-elements' } as const;

/** Whether `data` (a thread's `workerData`) marks a thread started by an element pool. */
export function isElementWorker(data: unknown): boolean {
  return data !== null && typeof data === 'object' && (data as { role?: unknown }).role === WORKER_DATA.role;
}

/** The worker module: TypeScript from the sources (tests, benches), JavaScript once built. */
function workerUrl(): URL {
  return new URL(`./element-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);
}

/** A worker running `url`; a TypeScript module is loaded through the tsx loader registered in the thread. */
function spawn(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: WORKER_DATA });
  const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { eval: true, workerData: WORKER_DATA });
}

/** Varied sentences (tenses, negation, questions, names, numbers) parsed at startup to warm the JIT. */
const WARM_TEXTS = [
  'The support agent is checking the weather in Paris for the customer who asked about it.',
  "I haven't received my refund for order 1234 yet; could you check what happened?",
  'She has been running the London office since 2019 and will not move to Berlin.',
  'Summarise the quarterly report: revenue grew 12% while costs fell by 3 million dollars.',
  'Why did the deployment fail last night, and who should fix the broken pipeline?',
  'The tool returned an error, so I retried the search with a shorter query.',
];
const WARM_ROUNDS = 8;

/**
 * The pool as a component: `start` loads `compromise` in every worker and warms it up (bounded by 10 s),
 * so the service reports ready with warm workers; `shutdown` stops the workers. Used on its own, workers
 * start on first use.
 */
export class ElementPool implements Component {
  readonly name = 'completeness-workers';
  #closing: Promise<void> | undefined;
  private readonly slots: Array<Slot | undefined>;
  private nextId = 1;

  private readonly script: URL;

  /** `script` replaces the worker module (tests); it must answer `ElementRequest`s with `ElementReply`s. */
  constructor(size: number, script?: URL) {
    this.slots = new Array<Slot | undefined>(Math.max(1, size)).fill(undefined);
    this.script = script ?? workerUrl();
  }

  get size(): number {
    return this.slots.length;
  }

  /** Parses `text` on the least busy worker. */
  parse(text: string): Promise<string[]> {
    return this.parseOn(this.leastBusy(), text);
  }

  private parseOn(slot: Slot, text: string): Promise<string[]> {
    const id = this.nextId++;
    return new Promise<string[]>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      if (slot.pending.size === 1) slot.worker.ref();
      slot.worker.postMessage({ id, text } satisfies ElementRequest);
    });
  }

  /**
   * Starts every worker and has each parse a sample text, so that loading `compromise` and its first
   * (slow, unoptimised) parses happen now, at startup, instead of on the first runs scored.
   */
  warm(): Promise<void> {
    const started: Array<Promise<string[]>> = [];
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i] ?? this.startWorker(i);
      for (let k = 0; k < WARM_ROUNDS; k++) for (const text of WARM_TEXTS) started.push(this.parseOn(slot, text));
    }
    return Promise.all(started).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Texts being parsed, over all workers. */
  inFlight(): number {
    let n = 0;
    for (const s of this.slots) n += s?.pending.size ?? 0;
    return n;
  }

  /** Warm up (see the class comment); resolves after `timeoutMs` at the latest. */
  start(timeoutMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    return Promise.race([this.warm(), late]).finally(() => clearTimeout(timer));
  }

  shutdown(): Promise<void> {
    this.#closing ??= this.close();
    return this.#closing;
  }

  /** Stops every worker; parses in flight fail. */
  async close(): Promise<void> {
    const all = this.slots.map((s, i) => {
      this.slots[i] = undefined;
      if (!s) return Promise.resolve();
      this.fail(s, new Error('completeness worker pool closed'));
      return s.worker.terminate().then(() => undefined);
    });
    await Promise.all(all);
  }

  /** An idle worker, else a new one while the pool has room, else the one with the fewest texts. */
  private leastBusy(): Slot {
    let best: Slot | undefined;
    let empty = -1;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i];
      if (!s) {
        if (empty < 0) empty = i;
        continue;
      }
      if (s.pending.size === 0) return s;
      if (!best || s.pending.size < best.pending.size) best = s;
    }
    return empty >= 0 ? this.startWorker(empty) : (best as Slot);
  }

  /** Grows the pool to `size` workers (started when needed). */
  grow(size: number): void {
    while (this.slots.length < size) this.slots.push(undefined);
  }

  private startWorker(index: number): Slot {
    const worker = spawn(this.script);
    const slot: Slot = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (reply: ElementReply) => {
      const p = slot.pending.get(reply.id);
      if (!p) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if ('error' in reply) p.reject(new Error(`completeness parse failed: ${reply.error}`));
      else p.resolve(reply.elements);
    });
    const died = (err: Error): void => {
      if (this.slots[index] === slot) this.slots[index] = undefined;
      this.fail(slot, err);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`completeness worker exited with code ${code}`)));
    this.slots[index] = slot;
    return slot;
  }

  private fail(slot: Slot, err: Error): void {
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
  }
}
