/**
 * A bounded work queue for evaluations: at most `concurrency` tasks run at once and at most `maxQueued`
 * wait. When a new task arrives at a full queue, the OLDEST waiting task is shed (documented policy:
 * fresh runs are worth more to on-call than stale ones); a shed task resolves through its `onShed`
 * callback, so its caller still learns the outcome and nothing is silently dropped.
 */

interface Entry<T> {
  task: () => Promise<T>;
  onShed: () => T;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

export class WorkQueue {
  private readonly waiting: Entry<unknown>[] = [];
  private head = 0;
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  shed = 0;

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
  ) {}

  /** Tasks running or waiting. */
  get size(): number {
    return this.running + this.waiting.length - this.head;
  }

  submit<T>(task: () => Promise<T>, onShed: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Entry<T> = { task, onShed, resolve, reject };
      if (this.running < this.concurrency) {
        this.start(entry as Entry<unknown>);
        return;
      }
      if (this.waiting.length - this.head >= this.maxQueued) {
        const oldest = this.waiting[this.head];
        this.waiting[this.head] = undefined as unknown as Entry<unknown>;
        this.head++;
        if (oldest) {
          this.shed++;
          this.settle(oldest);
        }
      }
      this.waiting.push(entry as Entry<unknown>);
      this.compact();
    });
  }

  /** Resolves when nothing is running or waiting. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(entry: Entry<unknown>): void {
    try {
      entry.resolve(entry.onShed());
    } catch (err) {
      entry.reject(err);
    }
  }

  private start(entry: Entry<unknown>): void {
    this.running++;
    let p: Promise<unknown>;
    try {
      p = entry.task();
    } catch (err) {
      p = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    p.then(entry.resolve, entry.reject).finally(() => {
      this.running--;
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.concurrency && this.head < this.waiting.length) {
      const entry = this.waiting[this.head] as Entry<unknown>;
      this.waiting[this.head] = undefined as unknown as Entry<unknown>;
      this.head++;
      this.start(entry);
    }
    this.compact();
    if (this.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }
}
