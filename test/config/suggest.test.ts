import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { closest, knownKeysAt } from '../../src/config/suggest.js';
import { duplicateListenerIssues } from '../../src/config/sections/listeners.js';
import { LISTENERS } from '../../src/config/load.js';

describe('did you mean', () => {
  it.each([
    ['scorer', ['scorers', 'sources', 'sampling'], 'scorers'],
    ['hots', ['host', 'port', 'tls'], 'host'],
    ['content-simlarity', ['content-similarity', 'answer-similarity'], 'content-similarity'],
    ['smapling', ['sampling', 'scorers'], 'sampling'],
    ['zzz', ['scorers', 'sources'], undefined],
    ['x', ['y'], 'y'],
    ['logleve', ['logLevel'], 'logLevel'],
  ])('%s → %s', (word, candidates, expected) => {
    expect(closest(word, candidates)).toBe(expected);
  });

  it('knows the keys at a path of the schema, through defaults and records', () => {
    expect(knownKeysAt(configSchema, [])).toContain('scorers');
    expect(knownKeysAt(configSchema, ['sources', 'otlp', 'http'])).toEqual(expect.arrayContaining(['host', 'port', 'tls']));
    expect(knownKeysAt(configSchema, ['sampling', 'agents', 'billing-*'])).toContain('rate');
    expect(knownKeysAt(configSchema, ['nope'])).toEqual([]);
  });
});

describe('listeners on one port', () => {
  it('collide on the same host or a wildcard, not on different hosts or port 0', () => {
    const l = (path: string, host: string, port: number) => ({ path, host, port });
    expect(duplicateListenerIssues([l('a', '127.0.0.1', 1), l('b', '10.0.0.1', 1)])).toEqual([]);
    expect(duplicateListenerIssues([l('a', '127.0.0.1', 0), l('b', '127.0.0.1', 0)])).toEqual([]);
    expect(duplicateListenerIssues([l('a', '0.0.0.0', 5), l('b', '10.0.0.1', 5)])).toEqual([{ path: 'a.port', message: 'b.port is 5 too; each listener needs its own port' }]);
    expect(duplicateListenerIssues([l('a', 'localhost', 5), l('b', '127.0.0.1', 5)])).toHaveLength(1);
  });

  it('the default ports used for the check are the schema defaults', () => {
    const config = configSchema.parse({});
    const actual = { 'sources.otlp.http': config.sources.otlp.http.port, 'sources.otlp.grpc': config.sources.otlp.grpc.port, 'emit.prometheus': config.emit.prometheus.port };
    expect(Object.fromEntries(LISTENERS.map((x) => [x.path.join('.'), x.defaultPort]))).toEqual(actual);
  });
});
