import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { createEmitters } from '../../src/emit/create-emitters.js';
import { JsonlFileSender, toJsonLine } from '../../src/emit/jsonl-file.js';
import { FanoutEmitter } from '../../src/emit/fanout.js';
import { StdoutSender } from '../../src/emit/stdout.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { emitSettings, withoutMetrics } from './emit-settings.js';
import { errorRecord, scoreRecord } from './records.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'tj-emit-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const lines = async (path: string): Promise<ScoreRecord[]> =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ScoreRecord);

describe('JSON-lines file emitter', () => {
  it('writes one record per line, appending to an existing file', async () => {
    const path = join(await tempDir(), 'nested', 'scores.jsonl');
    const sender = new JsonlFileSender({ path, maxBytes: 1_000_000, maxFiles: 3 });
    expect(await sender.send([scoreRecord(), errorRecord()])).toEqual({ code: 'success' });
    await sender.close();
    const again = new JsonlFileSender({ path, maxBytes: 1_000_000, maxFiles: 3 });
    expect(await again.send([scoreRecord({ scorer: 'similarity' })])).toEqual({ code: 'success' });
    await again.close();
    const got = await lines(path);
    expect(got.map((r) => r.scorer)).toEqual(['hallucination', 'relevancy', 'similarity']);
    expect(got[1]?.error?.type).toBe('TJ_JUDGE_TIMEOUT');
    expect(got[0]).toEqual(scoreRecord());
  });

  it('rotates by size and keeps at most maxFiles files', async () => {
    const dir = await tempDir();
    const path = join(dir, 'scores.jsonl');
    const lineBytes = Buffer.byteLength(toJsonLine(scoreRecord({ scorer: 's00' })));
    const sender = new JsonlFileSender({ path, maxBytes: lineBytes * 2, maxFiles: 3 });
    const records = Array.from({ length: 9 }, (_, i) => scoreRecord({ scorer: `s${String(i).padStart(2, '0')}` }));
    for (const r of records.slice(0, 4)) expect((await sender.send([r])).code).toBe('success');
    expect((await sender.send(records.slice(4))).code).toBe('success');
    await sender.close();
    expect((await readdir(dir)).sort()).toEqual(['scores.jsonl', 'scores.jsonl.1', 'scores.jsonl.2']);
    expect((await lines(path)).map((r) => r.scorer)).toEqual(['s08']);
    expect((await lines(`${path}.1`)).map((r) => r.scorer)).toEqual(['s06', 's07']);
    expect((await lines(`${path}.2`)).map((r) => r.scorer)).toEqual(['s04', 's05']);
    for (const f of ['scores.jsonl', 'scores.jsonl.1', 'scores.jsonl.2']) {
      expect((await readFile(join(dir, f))).length).toBeLessThanOrEqual(lineBytes * 2);
    }
  });

  it('reports a path that is a directory as a permanent failure', async () => {
    const dir = await tempDir();
    const sender = new JsonlFileSender({ path: dir, maxBytes: 1000, maxFiles: 2 });
    const result = await sender.send([scoreRecord()]);
    expect(result.code).toBe('permanent');
    expect(result.code !== 'success' && result.error.message).toContain(dir);
  });

  it('reports a parent that is a file as a permanent failure', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'file'), 'x');
    const sender = new JsonlFileSender({ path: join(dir, 'file', 'scores.jsonl'), maxBytes: 1000, maxFiles: 2 });
    expect((await sender.send([scoreRecord()])).code).toBe('permanent');
  });
});

describe('stdout emitter', () => {
  it('writes JSON lines to the stream', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const sender = new StdoutSender(out);
    expect(await sender.send([scoreRecord(), errorRecord()])).toEqual({ code: 'success' });
    const parsed = chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ScoreRecord);
    expect(parsed).toEqual([scoreRecord(), errorRecord()]);
  });

  it('returns permanent when the stream fails or is closed', async () => {
    const broken = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    broken.on('error', () => undefined);
    const sender = new StdoutSender(broken);
    expect((await sender.send([scoreRecord()])).code).toBe('permanent');
    expect((await sender.send([scoreRecord()])).code).toBe('permanent');
  });
});

describe('createEmitters', () => {
  it('builds the default set: metrics and stdout', () => {
    const emitters = createEmitters(configSchema.parse({}), { settings: emitSettings({}) });
    expect(emitters.map((e) => e.name)).toEqual(['metrics', 'stdout']);
  });

  it('fans a record out to stdout and the file', async () => {
    const path = join(await tempDir(), 'fan.jsonl');
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const emitters = new FanoutEmitter(withoutMetrics(createEmitters(configSchema.parse({ emit: { jsonl: { path } } }), { settings: emitSettings({}), stdout: new StdoutSender(out) })));
    expect(emitters.emitters.map((e) => e.name)).toEqual(['stdout', 'jsonl']);
    await emitters.start();
    expect(await emitters.emit([scoreRecord()])).toEqual({ code: 'success' });
    await emitters.shutdown(Date.now() + 2000);
    expect(await lines(path)).toEqual([scoreRecord()]);
    expect(JSON.parse(chunks.join('')) as ScoreRecord).toEqual(scoreRecord());
  });
});
