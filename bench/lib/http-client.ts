/** A minimal keep-alive OTLP/HTTP client for the bench: posts bodies with bounded concurrency. */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface PostResult {
  /** Per request, ms from send to the response's end. */
  latenciesMs: number[];
  /** Per request, performance.now() when it was first sent. */
  sentAt: number[];
  /** Per request, performance.now() when its response ended (acknowledged). */
  ackedAt: number[];
  /** Requests answered with a status other than 200, by status. */
  failures: Map<number, number>;
  /** Requests retried after 429/503. */
  retries: number;
}

function postOnce(agent: Agent, port: number, path: string, contentType: string, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Posts every body to `http://127.0.0.1:port/v1/traces`, `concurrency` at a time. 429/503 answers are retried
 * after `retryDelayMs` (at most `maxRetries` times per body), as an OTLP exporter would.
 */
export async function postAll(
  port: number,
  bodies: readonly Uint8Array[],
  contentType: 'application/json' | 'application/x-protobuf',
  concurrency: number,
  options: { retryDelayMs?: number; maxRetries?: number; path?: string; onSend?: (index: number, at: number) => void } = {},
): Promise<PostResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const result: PostResult = { latenciesMs: new Array<number>(bodies.length), sentAt: new Array<number>(bodies.length), ackedAt: new Array<number>(bodies.length), failures: new Map(), retries: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const i = next++;
      const body = bodies[i] as Uint8Array;
      const t0 = performance.now();
      result.sentAt[i] = t0;
      options.onSend?.(i, t0);
      let status = await postOnce(agent, port, options.path ?? '/v1/traces', contentType, body);
      for (let attempt = 0; (status === 429 || status === 503) && attempt < (options.maxRetries ?? 0); attempt++) {
        result.retries++;
        await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 50));
        status = await postOnce(agent, port, options.path ?? '/v1/traces', contentType, body);
      }
      const t1 = performance.now();
      result.latenciesMs[i] = t1 - t0;
      result.ackedAt[i] = t1;
      if (status !== 200) result.failures.set(status, (result.failures.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return result;
}
