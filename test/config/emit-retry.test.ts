/** `emit.retry`, `emit.buffer` and each emitter's overrides: defaults, inheritance, and errors at their key paths. */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { bufferOptions } from '../../src/emit/create-emitters.js';
import { ConfigError } from '../../src/errors.js';

function issuesOf(text: string): string[] {
  try {
    parseConfigText(text, 'c.yaml', {});
  } catch (err) {
    if (err instanceof ConfigError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('emit retry budget and buffer bounds', () => {
  it('defaults to a 5-minute budget, no attempt count, 64 MiB per emitter', () => {
    const config = parseConfigText('{}', 'c.yaml', {});
    expect(bufferOptions(config.emit, config.emit.otlp)).toEqual({
      maxRecords: 10_000,
      maxBytes: 64 * 1024 * 1024,
      maxBatchRecords: 512,
      initialBackoffMs: 500,
      maxBackoffMs: 30_000,
      maxElapsedMs: 300_000,
      onExhausted: 'hold',
    });
  });

  it('an emitter overrides the shared retry and buffer settings key by key', () => {
    const config = parseConfigText(
      'emit:\n  retry: { maxElapsedMs: 60000, maxAttempts: 50 }\n  buffer: { maxBytes: 1000000 }\n  otlp: { retry: { maxElapsedMs: 900000 }, buffer: { maxRecords: 99 } }\n',
      'c.yaml',
      {},
    );
    expect(bufferOptions(config.emit, config.emit.otlp)).toMatchObject({ maxElapsedMs: 900_000, maxAttempts: 50, maxRecords: 99, maxBytes: 1_000_000 });
    expect(bufferOptions(config.emit, config.emit.kafka)).toMatchObject({ maxElapsedMs: 60_000, maxAttempts: 50, maxRecords: 10_000 });
  });

  it('names the key path of a bad value', () => {
    expect(issuesOf('emit:\n  otlp: { retry: { maxElapsedMs: 0 } }\n')).toEqual([expect.stringMatching(/^emit\.otlp\.retry\.maxElapsedMs: /)]);
    expect(issuesOf('emit:\n  kafka: { retry: { maxElapsedMs: "5m" } }\n')).toEqual([expect.stringMatching(/^emit\.kafka\.retry\.maxElapsedMs: /)]);
    expect(issuesOf('emit:\n  buffer: { maxBytes: -1 }\n')).toEqual([expect.stringMatching(/^emit\.buffer\.maxBytes: /)]);
    expect(issuesOf('emit:\n  jsonl: { retry: { maxElapsedSeconds: 5 } }\n')).toEqual([expect.stringMatching(/^emit\.jsonl\.retry/)]);
  });
});
