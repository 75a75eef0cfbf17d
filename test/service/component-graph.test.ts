import { describe, expect, it } from 'vitest';
import { component, type Component } from '../../src/component.js';
import { ComponentGraph } from '../../src/component-graph.js';

/** A component that logs its start and shutdown into `events`, optionally failing one of them. */
function probe(name: string, events: string[], fail?: 'start' | 'shutdown'): Component {
  return component(name, {
    async start() {
      await new Promise((r) => setTimeout(r, 1));
      events.push(`start ${name}`);
      if (fail === 'start') throw new Error(`${name} cannot start`);
    },
    async shutdown() {
      await new Promise((r) => setTimeout(r, 1));
      events.push(`stop ${name}`);
      if (fail === 'shutdown') throw new Error(`${name} cannot stop`);
    },
  });
}

/** sources → assembler → pipeline → emitters → acknowledgements, plus metrics fed by everything. */
function pipelineGraph(events: string[], fail?: { name: string; phase: 'start' | 'shutdown' }): { graph: ComponentGraph; errors: string[] } {
  const errors: string[] = [];
  const graph = new ComponentGraph({ onShutdownError: (c, _p, err) => errors.push(`${c.name}: ${(err as Error).message}`) });
  const p = (name: string): Component => probe(name, events, fail?.name === name ? fail.phase : undefined);
  const metrics = p('metrics');
  const emitA = graph.add(p('emit-a'));
  const emitB = graph.add(p('emit-b'));
  const offsets = graph.add(p('offsets'));
  graph.link(emitA, offsets);
  graph.link(emitB, offsets);
  const pipeline = graph.add(p('pipeline'), [emitA, emitB]);
  const assembler = graph.add(p('assembler'), [pipeline]);
  graph.add(p('http'), [assembler]);
  graph.add(p('fetch'), [assembler]);
  const all = graph.components();
  graph.add(metrics);
  for (const c of all) graph.link(c, metrics);
  return { graph, errors };
}

const index = (events: string[], e: string): number => {
  const i = events.indexOf(e);
  expect(i, e).toBeGreaterThanOrEqual(0);
  return i;
};

describe('component graph', () => {
  it('derives the start order (consumers first) and the shutdown order (producers first) from the edges', async () => {
    const events: string[] = [];
    const { graph } = pipelineGraph(events);
    expect(graph.startLevels()).toEqual([['metrics'], ['offsets'], ['emit-a', 'emit-b'], ['pipeline'], ['assembler'], ['http', 'fetch']]);
    expect(graph.shutdownLevels()).toEqual([['http', 'fetch'], ['assembler'], ['pipeline'], ['emit-a', 'emit-b'], ['offsets'], ['metrics']]);
    await graph.start();
    for (const [before, after] of [['metrics', 'offsets'], ['emit-a', 'pipeline'], ['emit-b', 'pipeline'], ['pipeline', 'assembler'], ['assembler', 'http'], ['assembler', 'fetch']]) {
      expect(index(events, `start ${before}`)).toBeLessThan(index(events, `start ${after as string}`));
    }
    events.length = 0;
    await graph.shutdown(Date.now() + 1000);
    for (const [before, after] of [['http', 'assembler'], ['fetch', 'assembler'], ['assembler', 'pipeline'], ['pipeline', 'emit-a'], ['emit-a', 'offsets'], ['emit-b', 'offsets'], ['offsets', 'metrics']]) {
      expect(index(events, `stop ${before}`)).toBeLessThan(index(events, `stop ${after as string}`));
    }
    expect(events).toHaveLength(8);
  });

  it('refuses an edge that closes a cycle', () => {
    const graph = new ComponentGraph();
    const a = graph.add(component('a', {}));
    const b = graph.add(component('b', {}), [a]);
    const c = graph.add(component('c', {}), [b]);
    expect(() => graph.link(a, c)).toThrow('component graph: a → c would close a cycle');
    expect(() => graph.link(a, a)).toThrow(/would close a cycle/);
  });

  it('when a start fails, shuts down what started (in order) and rethrows that error', async () => {
    const events: string[] = [];
    const { graph } = pipelineGraph(events, { name: 'assembler', phase: 'start' });
    await expect(graph.start()).rejects.toThrow('assembler cannot start');
    // The sources never started; everything that did was shut down, the assembler (start attempted) too.
    expect(events.filter((e) => e.startsWith('start '))).not.toContain('start http');
    expect(events.filter((e) => e.startsWith('stop ')).sort()).toEqual(['stop assembler', 'stop emit-a', 'stop emit-b', 'stop metrics', 'stop offsets', 'stop pipeline'].sort());
    expect(index(events, 'stop pipeline')).toBeLessThan(index(events, 'stop emit-a'));
  });

  it('a failing shutdown is reported and its dependents still shut down; shutdown is safe twice', async () => {
    const events: string[] = [];
    const { graph, errors } = pipelineGraph(events, { name: 'pipeline', phase: 'shutdown' });
    await graph.start();
    events.length = 0;
    await Promise.all([graph.shutdown(Date.now() + 1000), graph.shutdown(Date.now() + 1000)]);
    expect(errors).toEqual(['pipeline: pipeline cannot stop']);
    expect(events.filter((e) => e.startsWith('stop '))).toHaveLength(8);
    expect(index(events, 'stop pipeline')).toBeLessThan(index(events, 'stop emit-a'));
  });

  it('shutdown before start stops nothing that never started, and a shut-down component cannot start', async () => {
    const events: string[] = [];
    const { graph } = pipelineGraph(events);
    await graph.shutdown(Date.now() + 1000);
    expect(events).toEqual([]);
    const c = probe('x', events);
    await c.shutdown(Date.now());
    await expect(c.start()).rejects.toThrow('x: cannot start after shutdown');
  });
});
