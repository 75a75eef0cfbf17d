import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';

describe('sources.otlp.wal config', () => {
  it('is off by default, with the documented defaults', () => {
    expect(parseConfig({}, '<t>', {}).sources.otlp.wal).toEqual({
      enabled: false, dir: './tracejudge-wal', fsync: 'always', segmentBytes: 67108864, maxBytes: 1073741824, checkpointIntervalMs: 1000,
    });
  });

  it('names the key of a bad value', () => {
    expect(() => parseConfig({ sources: { otlp: { wal: { fsync: 'sometimes' } } } }, '<t>', {})).toThrow(/sources\.otlp\.wal\.fsync/);
    expect(() => parseConfig({ sources: { otlp: { wal: { segmentBytes: 1 << 20, maxBytes: 1 << 20 } } } }, '<t>', {})).toThrow(/sources\.otlp\.wal\.maxBytes.*twice segmentBytes/);
  });
});
