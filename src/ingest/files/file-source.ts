/**
 * The file source as a component (`score FILE…`, `extract FILE…`): `start` reads and decodes every input
 * (so a malformed input fails before anything is printed) and then offers each document to the
 * assembler in the background; `done` resolves when everything was offered, with the totals, or rejects
 * with the input error (`TracejudgeError` naming the file, line or byte offset).
 */
import type { Component, ComponentSettings } from '../../component.js';
import { deferred } from '../../util/deferred.js';
import type { Interner } from '../otlp/intern.js';
import { feedInputs, readInputs, type FlushableSink, type IngestTotals } from './ingest-files.js';

export interface FileSource extends Component {
  readonly done: Promise<IngestTotals>;
}

export interface FileSourceOptions {
  paths: readonly string[];
  sink: FlushableSink;
  settings: ComponentSettings & { readonly interner: Interner };
  stdin?: NodeJS.ReadableStream;
}

export function createFileSource(options: FileSourceOptions): FileSource {
  const done = deferred<IngestTotals>();
  let started: Promise<void> | undefined;
  return {
    name: 'files',
    done: done.promise,
    start() {
      started ??= (async () => {
        const inputs = await readInputs(options.paths, options.settings, options.stdin).catch((err: unknown) => {
          done.reject(err);
          throw err;
        });
        feedInputs(options.sink, inputs, options.settings).then(done.resolve, done.reject);
      })();
      return started;
    },
    async shutdown() {
      // Nothing to release: reading ends by itself; the assembler's shutdown decides what was offered.
      await started?.catch(() => undefined);
    },
  };
}
