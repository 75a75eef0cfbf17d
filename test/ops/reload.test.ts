/**
 * Honest reload under a running `tracejudge serve` (a child process, started as a user starts it): a sampling
 * change is applied (a scorer sampled at 0 scores the next run once set to 1); a new
 * bearer token is applied at once, the old one works for `previousTokenGraceMs` and is refused after it; a
 * changed `assembly.decisionWaitMs` is named in a warn line as needing a restart and not claimed as applied;
 * no log line carries a token; /metrics shows a new config hash and load time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { post, RawGrpcClient } from '../reliability/helpers/clients.js';
import { Rng } from '../reliability/helpers/rng.js';
import { readJsonl, startServe, tempDir, type ServeProcess } from '../reliability/helpers/serve-process.js';
import { validRequest } from '../reliability/helpers/traces.js';
import { waitUntil } from '../reliability/helpers/service.js';

const OLD = 'old-token-5b1f0c9e7a';
const NEW = 'new-token-93d2e6a1c4';
// Long enough that the within-grace checks hold on a loaded machine (the reload is seen seconds after the write).
const GRACE_MS = 6000;

const configText = (token: string, decisionWaitMs: number, answeredRate: number, jsonl: string): string => `
sources:
  otlp:
    http: { port: 0 }
    grpc: { port: 0 }
    auth:
      bearerToken: ${token}
      previousTokenGraceMs: ${GRACE_MS}
assembly:
  decisionWaitMs: ${decisionWaitMs}
sampling:
  default: { scorers: { answered: ${answeredRate} } }
emit:
  stdout: { enabled: false }
  jsonl: { path: "${jsonl}" }
  prometheus: { port: 0 }
`;

const metric = (text: string, re: RegExp): string | undefined => re.exec(text)?.[1];

describe('config reload under tracejudge serve', () => {
  let dir: string;
  let serve: ServeProcess;
  let httpUrl: string;
  let metricsUrl: string;
  let grpcClient: RawGrpcClient;
  const rng = new Rng(0x30);

  const sentTraces: string[] = [];
  const send = async (token: string): Promise<number> => {
    const r = validRequest(rng, 'aisdk6-two-tools');
    const status = (await post(`${httpUrl}/v1/traces`, r.json, 'application/json', { authorization: `Bearer ${token}` })).status;
    if (status === 200) sentTraces.push(...r.traceIds);
    return status;
  };
  /** The scorers of the records written for `traceId`. */
  const scorersOf = (traceId: string): string[] => readJsonl(jsonl).filter((r) => r.traceId === traceId).map((r) => String(r.scorer));
  let jsonl: string;
  const sendGrpc = async (token: string): Promise<grpc.status> => (await grpcClient.export(validRequest(rng).proto, token)).code;
  const scrape = async (): Promise<string> => (await fetch(metricsUrl)).text();

  beforeAll(async () => {
    dir = tempDir('reload');
    jsonl = join(dir, 'scores.jsonl');
    writeFileSync(join(dir, 'tracejudge.yaml'), configText(OLD, 500, 0, jsonl));
    serve = startServe(join(dir, 'tracejudge.yaml'));
    const ports = await serve.started();
    httpUrl = `http://127.0.0.1:${ports.http ?? 0}`;
    metricsUrl = `http://127.0.0.1:${ports.metrics ?? 0}/metrics`;
    grpcClient = new RawGrpcClient(ports.grpc ?? 0);
  }, 60_000);

  afterAll(async () => {
    grpcClient.close();
    if (serve.alive()) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('applies sampling and a new token (old one only within the grace), warns naming assembly.decisionWaitMs, and shows the new config hash', async () => {
    expect(await send(OLD)).toBe(200);
    const unsampled = sentTraces.at(-1) ?? '';
    expect(await send(NEW)).toBe(401);
    expect(await sendGrpc(OLD)).toBe(grpc.status.OK);
    expect(await sendGrpc(NEW)).toBe(grpc.status.UNAUTHENTICATED);
    const before = await scrape();
    const hash1 = metric(before, /^tracejudge_config_info\{[^}]*hash="([0-9a-f]+)"[^}]*\} 1/m);
    const loaded1 = Number(metric(before, /^tracejudge_config_loaded_timestamp_seconds(?:\{[^}]*\})? ([0-9.e+]+)/m));
    expect(hash1).toMatch(/^[0-9a-f]{16}$/);
    expect(loaded1).toBeGreaterThan(1.7e9);

    // Scored by the other code scorers, not by `answered` (sampled at 0).
    expect(await waitUntil(() => scorersOf(unsampled).length > 0, 10_000)).toBe(true);
    expect(scorersOf(unsampled)).not.toContain('answered');

    writeFileSync(join(dir, 'tracejudge.yaml'), configText(NEW, 900, 1, jsonl));
    expect(await waitUntil(() => serve.logs().some((l) => String(l.msg).startsWith('configuration reloaded')), 10_000)).toBe(true);
    // The server reloaded between the write and now: its grace ends before seenAt + GRACE_MS.
    const seenAt = Date.now();

    // The token is live at once; the old one still works within the grace.
    expect(await send(NEW)).toBe(200);
    const sampled = sentTraces.at(-1) ?? '';
    expect(await send(OLD)).toBe(200);
    expect(await sendGrpc(NEW)).toBe(grpc.status.OK);

    const logs = serve.logs();
    const warn = logs.find((l) => String(l.msg).startsWith('configuration changes not applied until a restart'));
    expect(warn?.msg).toBe('configuration changes not applied until a restart: assembly.decisionWaitMs');
    expect(warn?.restartRequired).toEqual(['assembly.decisionWaitMs']);
    expect(warn?.level).toBe(40);
    const applied = logs.find((l) => String(l.msg).startsWith('configuration reloaded'));
    expect(applied?.applied).toEqual(['sampling.default.scorers.answered.rate', 'sources.otlp.auth.bearerToken']);
    expect(String(applied?.msg)).not.toContain('decisionWaitMs');
    // Key paths only: neither token is in any log line.
    expect(serve.stderr()).not.toContain(OLD);
    expect(serve.stderr()).not.toContain(NEW);

    const after = await scrape();
    const hash2 = metric(after, /^tracejudge_config_info\{[^}]*hash="([0-9a-f]+)"[^}]*\} 1/m);
    const loaded2 = Number(metric(after, /^tracejudge_config_loaded_timestamp_seconds(?:\{[^}]*\})? ([0-9.e+]+)/m));
    expect(hash2).toMatch(/^[0-9a-f]{16}$/);
    expect(hash2).not.toBe(hash1);
    // The replaced config's series drops to 0.
    expect(after).toMatch(new RegExp(`^tracejudge_config_info\\{[^}]*hash="${hash1}"[^}]*\\} 0$`, 'm'));
    expect(loaded2).toBeGreaterThan(loaded1);

    // After the grace the old token is refused; the new one keeps working.
    await new Promise((r) => setTimeout(r, Math.max(0, seenAt + GRACE_MS + 500 - Date.now())));
    expect(await send(OLD)).toBe(401);
    expect(await send(NEW)).toBe(200);
    expect(await sendGrpc(OLD)).toBe(grpc.status.UNAUTHENTICATED);
    expect(await sendGrpc(NEW)).toBe(grpc.status.OK);

    // The sampling change is live: the trace sent after the reload is scored by `answered`.
    expect(await waitUntil(() => scorersOf(sampled).includes('answered'), 10_000)).toBe(true);

    // A second reload still names the key waiting for a restart, and applies nothing new.
    serve.child.kill('SIGHUP');
    expect(await waitUntil(() => serve.logs().filter((l) => String(l.msg).startsWith('configuration changes not applied')).length >= 2, 10_000)).toBe(true);
    expect(await waitUntil(() => serve.logs().some((l) => l.msg === 'configuration reloaded: nothing applied live'), 10_000)).toBe(true);
  }, 60_000);
});
