/**
 * Worker thread of the element pool: parses texts with `compromise`, one message in, one message out.
 * The thread's compromise is its own module instance, so it gets the speed-ups of `speedups.ts`; only a
 * thread the pool started (marked by its `workerData`) installs them and answers.
 */
import type { MessagePort } from 'node:worker_threads';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isElementWorker } from './element-pool.js';
import { elementParser } from './elements.js';
import { compromise } from './nlp.js';
import { installSpeedups } from './speedups.js';

export interface ElementRequest {
  id: number;
  text: string;
}

export type ElementReply = { id: number; elements: string[] } | { id: number; error: string };

function serve(port: MessagePort): void {
  const nlp = compromise();
  installSpeedups(nlp);
  const parse = elementParser(nlp);
  port.on('message', (req: ElementRequest) => {
    let reply: ElementReply;
    try {
      reply = { id: req.id, elements: parse(req.text) };
    } catch (err) {
      reply = { id: req.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
}

if (!isMainThread && parentPort && isElementWorker(workerData)) serve(parentPort);
