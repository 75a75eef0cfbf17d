/**
 * The resource of everything tracejudge exports. `tracejudge serve` (child processes) with OTEL_SERVICE_NAME
 * and OTEL_RESOURCE_ATTRIBUTES set exports evaluation carrier spans, evaluation log records and its own metrics
 * over OTLP (to a collector-shaped receiver) and serves Prometheus `target_info`; every one of them carries the
 * configured attributes plus `service.version` (package.json) and `service.instance.id`, and a second process
 * gets another instance id. In-process: the defaults, a stable id from the environment, and the parsing of an
 * explicit `env` object agreeing with the SDK's envDetector (which reads process.env).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envDetector } from '@opentelemetry/resources';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { OtlpReceiver, type TypedValue } from '../emit/otlp-receiver.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from '../e2e/serve-process.js';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { ROOT } from './run-cli.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENV = { OTEL_SERVICE_NAME: 'x', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=ml' };

const receiver = new OtlpReceiver();
const first = new ServeProcess();
const second = new ServeProcess();
let dir: string;
let fx: Fixtures;

function yaml(endpoint: string): string {
  return [
    'sources:',
    '  otlp:',
    '    http: { port: 0 }',
    '    grpc: { enabled: false }',
    'assembly: { decisionWaitMs: 200, tickMs: 50 }',
    'emit:',
    '  stdout: { enabled: false }',
    `  otlp: { endpoint: ${JSON.stringify(endpoint)}, protocol: http/json, timeoutMs: 5000, metricsIntervalMs: 500 }`,
    '  prometheus: { port: 0 }',
    'telemetry: { shutdownTimeoutMs: 8000 }',
    '',
  ].join('\n');
}

/** `target_info` labels from a Prometheus text exposition. */
async function targetInfo(metricsPort: number | undefined): Promise<Record<string, string>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('target_info{'));
  if (!line) throw new Error(`no target_info in /metrics:\n${text.slice(0, 2000)}`);
  const labels: Record<string, string> = {};
  for (const m of line.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1] as string] = (m[2] as string).replace(/\\(.)/g, '$1');
  return labels;
}

const str = (v: TypedValue | undefined): unknown => (v?.type === 'string' ? v.value : v);

function expectResource(resource: Record<string, TypedValue>, instanceId: string): void {
  expect(str(resource['service.name'])).toBe('x');
  expect(str(resource['deployment.environment'])).toBe('prod');
  expect(str(resource.team)).toBe('ml');
  expect(str(resource['service.version'])).toBe(VERSION);
  expect(str(resource['service.instance.id'])).toBe(instanceId);
}

beforeAll(async () => {
  fx = await makeFixtures();
  await receiver.start();
  dir = await tempDir('resource');
  await first.start(dir, 'first.yaml', yaml(receiver.httpUrl), childEnv(ENV));
  const res = await fetch(`${first.otlpHttpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: fx.proto });
  expect(res.status).toBe(200);
  await until('evaluation spans, log records and metrics over OTLP', 30_000, () =>
    receiver.spans.some((s) => s.name.startsWith('evaluation ')) && receiver.logs.length > 0 && receiver.metricResources.length > 0 ? true : undefined,
  );
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([first.stop(), second.stop()]);
  first.kill();
  second.kill();
  await receiver.stop();
  await removeDir(dir);
});

describe('the resource of what serve exports', () => {
  it('evaluation spans, evaluation log records and OTLP metrics carry OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, service.version and one service.instance.id', () => {
    const spans = receiver.spans.filter((s) => s.name.startsWith('evaluation '));
    const instanceId = str(spans[0]?.resource['service.instance.id']);
    expect(instanceId).toMatch(UUID);
    for (const s of spans) expectResource(s.resource, instanceId as string);
    for (const l of receiver.logs) expectResource(l.resource, instanceId as string);
    for (const m of receiver.metricResources) expectResource(m, instanceId as string);
    // The process detector is part of it: the pid is the serving process's own (its log lines carry it too).
    const pid = first.logs().find((l) => l.msg === 'tracejudge started')?.pid;
    expect(spans[0]?.resource['process.pid']?.value).toBe(pid);
  });

  it('Prometheus target_info carries the same attributes and instance id', async () => {
    const labels = await targetInfo(first.ports.metrics);
    const span = receiver.spans.find((s) => s.name.startsWith('evaluation '));
    expect(labels).toMatchObject({ service_name: 'x', deployment_environment: 'prod', team: 'ml', service_version: VERSION });
    expect(labels.service_instance_id).toBe(str(span?.resource['service.instance.id']));
  });

  it('a second instance with the same environment has another service.instance.id', async () => {
    await second.start(dir, 'second.yaml', yaml(receiver.httpUrl), childEnv(ENV));
    const a = await targetInfo(first.ports.metrics);
    const b = await targetInfo(second.ports.metrics);
    expect(b.service_name).toBe('x');
    expect(b.service_instance_id).toMatch(UUID);
    expect(b.service_instance_id).not.toBe(a.service_instance_id);
  }, 60_000);
});

describe('serviceResource (in process)', () => {
  const config = parseConfig({}, 'test', {});
  const resourceOf = (env: Record<string, string>): Record<string, unknown> => createSettings(config, { env, logger: silentLogger(), prometheus: false }).resource.attributes;

  afterEach(() => vi.unstubAllEnvs());

  it('defaults to service.name=tracejudge with the package version and a fresh UUID per service', () => {
    const a = resourceOf({});
    const b = resourceOf({});
    expect(a['service.name']).toBe('tracejudge');
    expect(a['service.version']).toBe(VERSION);
    expect(a['service.instance.id']).toMatch(UUID);
    expect(b['service.instance.id']).not.toBe(a['service.instance.id']);
    expect(a['telemetry.sdk.language']).toBe('nodejs');
  });

  it('takes a stable service.instance.id (or any attribute, service.version too) from OTEL_RESOURCE_ATTRIBUTES', () => {
    const r = resourceOf({ OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=replica-7,service.version=1.2.3-custom' });
    expect(r['service.instance.id']).toBe('replica-7');
    expect(r['service.version']).toBe('1.2.3-custom');
  });

  it.each([
    ['a list', { OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=ml' }],
    ['percent-encoded values and blanks', { OTEL_RESOURCE_ATTRIBUTES: ' k%3Dx = a%2Cb , ,other=%20v ' }],
    ['OTEL_SERVICE_NAME over service.name in the list', { OTEL_SERVICE_NAME: 'svc', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other,a=1' }],
    ['a malformed entry (the whole variable is ignored)', { OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=2=3' }],
    ['an empty key', { OTEL_RESOURCE_ATTRIBUTES: 'a=1,=2' }],
    ['a bad percent escape', { OTEL_RESOURCE_ATTRIBUTES: 'a=%E0%A4%A' }],
    ['a value over 255 characters', { OTEL_RESOURCE_ATTRIBUTES: `a=${'v'.repeat(256)}` }],
  ])('reads an env object like the SDK envDetector reads process.env: %s', (_label, env: Record<string, string>) => {
    vi.stubEnv('OTEL_SERVICE_NAME', env.OTEL_SERVICE_NAME ?? '');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', env.OTEL_RESOURCE_ATTRIBUTES ?? '');
    const sdk = envDetector.detect().attributes ?? {};
    const ours = resourceOf(env);
    for (const [k, v] of Object.entries(sdk)) expect(ours[k], k).toEqual(v);
    // Nothing from the variables beyond what the SDK read (the tracejudge defaults aside).
    const fromEnv = Object.keys(ours).filter((k) => !k.startsWith('process.') && !k.startsWith('telemetry.sdk.') && !['service.name', 'service.version', 'service.instance.id'].includes(k));
    expect(fromEnv.sort()).toEqual(Object.keys(sdk).filter((k) => k !== 'service.name').sort());
  });
});
