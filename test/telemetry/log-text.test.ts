import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLogLine } from '../../src/telemetry/log-text.js';
import { resolveLogFormat, ThrottledLog } from '../../src/telemetry/log.js';

describe('text log lines', () => {
  it('local time, level name, message, then the fields; strings with spaces quoted, objects as JSON', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
    const line = JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', name: 'tracejudge', component: 'otlp-http', msg: 'refused OTLP/HTTP requests', status: 429, reason: 'buffers are full', client: '10.0.0.7', count: 3, extra: { a: 1 } });
    expect(formatLogLine(line)).toBe('03:04:05.006 WARN  refused OTLP/HTTP requests component=otlp-http status=429 reason="buffers are full" client=10.0.0.7 count=3 extra={"a":1}\n');
  });

  it('an error: its message, and its stack at error level', () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { type: 'Error', message: 'bad thing', stack: 'Error: bad thing\n    at f (x.js:1:1)' } });
    expect(formatLogLine(line).split('\n')).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d\.000 ERROR boom err="bad thing"$/), '    Error: bad thing', '    at f (x.js:1:1)', '']);
    expect(formatLogLine('not json\n')).toBe('not json\n');
  });

  it('the format: env, else config, else text on a terminal only', () => {
    expect(resolveLogFormat(undefined, {}, true)).toBe('text');
    expect(resolveLogFormat(undefined, {}, false)).toBe('json');
    expect(resolveLogFormat('text', {}, false)).toBe('text');
    expect(resolveLogFormat('json', {}, true)).toBe('json');
    expect(resolveLogFormat('text', { TRACEJUDGE_LOG_FORMAT: 'json' }, true)).toBe('json');
  });
});

describe('ThrottledLog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function capture(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _e, cb) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          cb();
        },
      }),
    );
    return { logger, lines };
  }

  it('writes the first at once, and the pending count after the interval even when nothing else comes', async () => {
    vi.useFakeTimers();
    const { logger, lines } = capture();
    const t = new ThrottledLog(logger, 'refused', 1000);
    t.hit(1, { status: 429 });
    t.hit(1, { status: 408 });
    t.hit(1, { status: 413 });
    await vi.advanceTimersByTimeAsync(0);
    expect(lines.map((l) => [l.count, l.status])).toEqual([[1, 429]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(lines.map((l) => [l.count, l.status])).toEqual([
      [1, 429],
      [2, 413],
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(lines).toHaveLength(2); // nothing pending: nothing more
  });

  it('flush() writes what is pending at once (shutdown) and nothing when nothing is', async () => {
    const { logger, lines } = capture();
    const t = new ThrottledLog(logger, 'refused', 60_000);
    t.flush();
    t.hit();
    t.hit(4);
    t.flush();
    t.flush();
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.count)).toEqual([1, 4]);
  });
});
