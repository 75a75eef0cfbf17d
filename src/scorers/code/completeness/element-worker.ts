/** Worker thread of the element pool: parses texts with `compromise`, one message in, one message out. */
import { parentPort } from 'node:worker_threads';
import { parseElements } from './elements.js';

export interface ElementRequest {
  id: number;
  text: string;
}

export type ElementReply = { id: number; elements: string[] } | { id: number; error: string };

parentPort?.on('message', (req: ElementRequest) => {
  let reply: ElementReply;
  try {
    reply = { id: req.id, elements: parseElements(req.text) };
  } catch (err) {
    reply = { id: req.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
