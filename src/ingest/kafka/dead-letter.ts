/**
 * Dead-letter publishing for poison messages: the original key and value, the original headers, plus
 * `tracejudge.error`, `tracejudge.source.topic`, `tracejudge.source.partition`, `tracejudge.source.offset`.
 * Bounded retries: a message is never retried forever.
 */
import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { errorMessage } from '../../errors.js';

export interface DeadLetterInput {
  topic: string;
  partition: number;
  message: KafkaMessage;
  error: unknown;
}

export function deadLetterHeaders(input: DeadLetterInput): IHeaders {
  const headers: IHeaders = {};
  for (const [k, v] of Object.entries(input.message.headers ?? {})) if (v !== undefined) headers[k] = v;
  headers['tracejudge.error'] = errorMessage(input.error).slice(0, 1000);
  headers['tracejudge.source.topic'] = input.topic;
  headers['tracejudge.source.partition'] = String(input.partition);
  headers['tracejudge.source.offset'] = input.message.offset;
  return headers;
}

/** Publish to the DLQ, retrying at most `attempts` times. Resolves false when it finally failed. */
export async function publishDeadLetter(
  producer: Producer,
  dlqTopic: string,
  input: DeadLetterInput,
  attempts = 5,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    try {
      await producer.send({
        topic: dlqTopic,
        messages: [{ key: input.message.key, value: input.message.value, headers: deadLetterHeaders(input) }],
      });
      return true;
    } catch {
      await sleep(Math.min(200 * 2 ** i, 5000));
    }
  }
  return false;
}
