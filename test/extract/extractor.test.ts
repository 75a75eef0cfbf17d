/**
 * One `Extractor` made once (mapping compiled, key-family table kept across traces), as the service uses
 * it, extracts every fixture as a fresh `extractTraces` call does: fixture after fixture, twice over, the
 * second pass with every key already in the shared table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeExtractInput, logsFromRequest } from '../../src/api/extract.js';
import { Extractor, type TraceExtraction } from '../../src/extract/extract.js';
import { KeyFlagTable } from '../../src/extract/key-flags.js';
import { extractFixture, fixtureNames, IN_HOUSE_MAPPING, TRACES_DIR } from './fixture-io.js';

const summary = (ts: readonly TraceExtraction[]): string => JSON.stringify(ts.map((t) => ({ traceId: t.traceId, runs: t.contexts.map((c) => c.run), spans: t.contexts.map((c) => c.spans.map((s) => s.spanId)), explanation: t.explanation })));

describe('Extractor', () => {
  it('extracts every fixture as extractTraces does, with one table across all of them', () => {
    const table = new KeyFlagTable();
    const names = fixtureNames();
    expect(names.length).toBeGreaterThan(20);
    for (let pass = 0; pass < 2; pass++) {
      for (const name of names) {
        const logsFile = join(TRACES_DIR, `${name}.logs.json`);
        const logs = existsSync(logsFile) ? logsFromRequest(readFileSync(logsFile, 'utf8')) : [];
        const options = name.startsWith('handwritten-mapping-') ? { ...IN_HOUSE_MAPPING, logs } : { logs };
        const once = new Extractor(options, table);
        expect(summary(once.traces(decodeExtractInput(readFileSync(join(TRACES_DIR, `${name}.json`), 'utf8')))), `${name}, pass ${pass}`).toBe(summary(extractFixture(name)));
      }
    }
    expect(table.tables()[0]?.entries).toBeGreaterThan(50);
  });

  it('keeps its mapping for every trace it is handed', () => {
    const name = fixtureNames().find((n) => n.startsWith('handwritten-mapping-'));
    expect(name).toBeDefined();
    const text = decodeExtractInput(readFileSync(join(TRACES_DIR, `${name as string}.json`), 'utf8'));
    const extractor = new Extractor(IN_HOUSE_MAPPING);
    const first = summary(extractor.traces(text));
    expect(extractor.traces(text).flatMap((t) => t.contexts).length).toBeGreaterThan(0);
    expect(summary(extractor.traces(text))).toBe(first);
    // Without the mapping the in-house spans are not an agent's.
    expect(summary(new Extractor().traces(text))).not.toBe(first);
  });
});
