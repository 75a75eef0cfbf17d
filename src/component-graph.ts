/**
 * A directed acyclic graph of components: an edge `from → to` says `from` hands work to `to` (a source
 * feeds the assembler, the pipeline feeds the emitters, the emitters acknowledge to the Kafka offsets).
 * The lifecycle order is derived from the edges, never written by hand:
 * - start: a component starts once everything it feeds has started (emitters before the pipeline,
 *   the pipeline before the assembler, the assembler before the sources), so nothing is handed to a
 *   component that is not up;
 * - shutdown: a component shuts down once everything that feeds it has shut down (sources stop intake
 *   first, then the assembler flushes, then the pipeline drains, then the emitters flush), so nothing is
 *   handed to a component that is gone.
 * Independent components start and stop concurrently.
 */
import type { Component } from './component.js';

interface Node {
  readonly component: Component;
  /** Components this one feeds. */
  readonly feeds: Set<Node>;
  /** Components that feed this one. */
  readonly fedBy: Set<Node>;
}

export class ComponentGraph {
  readonly #nodes = new Map<Component, Node>();
  #started: Promise<void> | undefined;
  #stopped: Promise<void> | undefined;
  readonly #onError: (component: Component, phase: 'shutdown', err: unknown) => void;

  constructor(options: { onShutdownError?: (component: Component, phase: 'shutdown', err: unknown) => void } = {}) {
    this.#onError = options.onShutdownError ?? (() => undefined);
  }

  /** Add `component` (once; adding it again only adds edges) with edges to the components it feeds. */
  add<C extends Component>(component: C, feeds: readonly Component[] = []): C {
    const node = this.#node(component);
    for (const to of feeds) this.link(node.component, to);
    return component;
  }

  /** Add the edge `from → to`. Throws when it would close a cycle. */
  link(from: Component, to: Component): void {
    const a = this.#node(from);
    const b = this.#node(to);
    if (a === b || this.#reaches(b, a)) throw new Error(`component graph: ${from.name} → ${to.name} would close a cycle`);
    a.feeds.add(b);
    b.fedBy.add(a);
  }

  /** The components, in insertion order. */
  components(): Component[] {
    return [...this.#nodes.keys()];
  }

  /**
   * Start order as levels: every component of a level starts after every level before it.
   * Components of one level start concurrently.
   */
  startLevels(): string[][] {
    return levels([...this.#nodes.values()], (n) => n.feeds).map((l) => l.map((n) => n.component.name));
  }

  /** Shutdown order as levels (sources first). */
  shutdownLevels(): string[][] {
    return levels([...this.#nodes.values()], (n) => n.fedBy).map((l) => l.map((n) => n.component.name));
  }

  /**
   * Start every component, each after everything it feeds. When one fails, whatever started is shut down
   * (in shutdown order, by `failureDeadline`) and the first error is rethrown.
   */
  start(failureDeadline: () => number = () => Date.now() + 5000): Promise<void> {
    this.#started ??= (async () => {
      const done = new Map<Node, Promise<void>>();
      const startOf = (n: Node): Promise<void> => {
        let p = done.get(n);
        if (!p) {
          p = Promise.all([...n.feeds].map(startOf)).then(() => n.component.start());
          done.set(n, p);
        }
        return p;
      };
      const all = [...this.#nodes.values()].map(startOf);
      const results = await Promise.allSettled(all);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        await this.shutdown(failureDeadline());
        throw failed.reason;
      }
    })();
    return this.#started;
  }

  /**
   * Shut every component down by `deadline`, each after everything that feeds it. Never rejects: a
   * component's failure is reported to `onShutdownError` and its dependents still shut down. Safe twice.
   */
  shutdown(deadline: number): Promise<void> {
    this.#stopped ??= (async () => {
      const done = new Map<Node, Promise<void>>();
      const stopOf = (n: Node): Promise<void> => {
        let p = done.get(n);
        if (!p) {
          p = Promise.all([...n.fedBy].map(stopOf)).then(() =>
            n.component.shutdown(deadline).catch((err: unknown) => this.#onError(n.component, 'shutdown', err)),
          );
          done.set(n, p);
        }
        return p;
      };
      await Promise.all([...this.#nodes.values()].map(stopOf));
    })();
    return this.#stopped;
  }

  #node(component: Component): Node {
    let n = this.#nodes.get(component);
    if (!n) {
      n = { component, feeds: new Set(), fedBy: new Set() };
      this.#nodes.set(component, n);
    }
    return n;
  }

  #reaches(from: Node, to: Node): boolean {
    const seen = new Set<Node>();
    const stack = [from];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      if (n === to) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const m of n.feeds) stack.push(m);
    }
    return false;
  }
}

/** Group nodes in levels: a node's level is one more than the highest level of its `before(n)` nodes. */
function levels(nodes: readonly Node[], before: (n: Node) => ReadonlySet<Node>): Node[][] {
  const level = new Map<Node, number>();
  const of = (n: Node): number => {
    let l = level.get(n);
    if (l === undefined) {
      l = 0;
      for (const m of before(n)) l = Math.max(l, of(m) + 1);
      level.set(n, l);
    }
    return l;
  };
  const out: Node[][] = [];
  for (const n of nodes) (out[of(n)] ??= []).push(n);
  return out.filter((l) => l !== undefined);
}
