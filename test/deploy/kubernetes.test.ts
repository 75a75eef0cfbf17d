/**
 * deploy/kubernetes/tracejudge.yaml as a cluster and the service would read it (issue 32, item 6): every
 * document has the shape its kind needs (a zod schema of the fields used here, written for this test; no
 * cluster or kubeconform here), the Deployment's selector, the Service's selector and target ports agree,
 * the probes ask /healthz and /readyz on the metrics port, and the ConfigMap's file loaded with the image's
 * ENV and the container's env gives listeners on exactly the container ports, which are also the
 * service's defaults. Finally `serve` is started with that file and env (ports moved to free ones) and the
 * probe paths answer over HTTP.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { checkConfigText } from '../../src/config/load.js';
import { LISTEN_ENV } from '../../src/config/listen-env.js';
import { cliEnv, ROOT, startCli } from '../cli/run-cli.js';

const FILE = join(ROOT, 'deploy/kubernetes/tracejudge.yaml');

const name = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
const labels = z.record(z.string(), z.string());
const metadata = z.object({ name, labels: labels.optional() });
const portName = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(15);
const probe = z.object({ httpGet: z.object({ path: z.string().startsWith('/'), port: z.union([portName, z.number().int()]) }) });
const envVar = z.union([
  z.strictObject({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), value: z.string() }),
  z.strictObject({ name: z.string(), valueFrom: z.object({ secretKeyRef: z.object({ name, key: z.string() }) }) }),
]);
const container = z.object({
  name,
  image: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.array(envVar),
  ports: z.array(z.object({ name: portName, containerPort: z.number().int().min(1).max(65535), protocol: z.literal('TCP') })),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe.optional(),
  volumeMounts: z.array(z.object({ name, mountPath: z.string().startsWith('/') })).optional(),
});
const configMap = z.object({ apiVersion: z.literal('v1'), kind: z.literal('ConfigMap'), metadata, data: z.record(z.string(), z.string()) });
const deployment = z.object({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('Deployment'),
  metadata,
  spec: z.object({
    replicas: z.number().int().min(1),
    selector: z.object({ matchLabels: labels }),
    template: z.object({
      metadata: z.object({ labels }),
      spec: z.object({
        containers: z.array(container).length(1),
        volumes: z.array(z.object({ name, configMap: z.object({ name }).optional(), emptyDir: z.object({}).optional() })).optional(),
      }),
    }),
  }),
});
const service = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Service'),
  metadata,
  spec: z.object({ selector: labels, ports: z.array(z.object({ name: portName, port: z.number().int(), targetPort: z.union([portName, z.number().int()]) })) }),
});

function manifests(text: string): { cm: z.infer<typeof configMap>; deploy: z.infer<typeof deployment>; svc: z.infer<typeof service> } {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new Error('no documents');
  for (const d of docs) if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join('\n'));
  const objs = docs.map((d) => d.toJS() as { kind?: string });
  const one = <T>(kind: string, schema: z.ZodType<T>): T => {
    const found = objs.filter((o) => o.kind === kind);
    if (found.length !== 1) throw new Error(`${found.length} ${kind} documents`);
    return schema.parse(found[0]);
  };
  return { cm: one('ConfigMap', configMap), deploy: one('Deployment', deployment), svc: one('Service', service) };
}

/** The runtime stage's ENV, as scripts/image/verify.sh reads it. */
function imageEnv(): Record<string, string> {
  const steps = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts/image/dockerfile.mjs'), join(ROOT, 'Dockerfile'), 'runtime'], { encoding: 'utf8' })) as {
    op: string;
    env?: Record<string, string>;
  }[];
  const env: Record<string, string> = {};
  for (const s of steps) if (s.op === 'ENV') Object.assign(env, s.env);
  return env;
}

function containerEnv(c: z.infer<typeof container>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of c.env) if ('value' in e) out[e.name] = e.value;
  return out;
}

/** Every `TRACEJUDGE_…` name that appears in the sources under src/. */
function variablesTheServiceReads(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) for (const m of readFileSync(join(dir, e.name), 'utf8').matchAll(/\bTRACEJUDGE_[A-Z0-9_]+\b/g)) names.add(m[0]);
    }
  };
  walk(join(ROOT, 'src'));
  return names;
}

const text = readFileSync(FILE, 'utf8');
const { cm, deploy, svc } = manifests(text);
const c = deploy.spec.template.spec.containers[0] as z.infer<typeof container>;
const portOf = (p: string | number): number | undefined => (typeof p === 'number' ? p : c.ports.find((x) => x.name === p)?.containerPort);

describe('deploy/kubernetes/tracejudge.yaml', () => {
  it('has a ConfigMap, a Deployment and a Service whose selectors and port names agree', () => {
    expect(deploy.spec.template.metadata.labels).toMatchObject(deploy.spec.selector.matchLabels);
    expect(deploy.spec.template.metadata.labels).toMatchObject(svc.spec.selector);
    for (const p of svc.spec.ports) expect(portOf(p.targetPort), `Service port ${p.name}`).toBeDefined();
    const mounted = deploy.spec.template.spec.volumes?.find((v) => v.configMap?.name === cm.metadata.name);
    expect(mounted, 'the ConfigMap is mounted').toBeDefined();
    const mount = c.volumeMounts?.find((m) => m.name === mounted?.name);
    expect(Object.keys(cm.data).map((k) => `${mount?.mountPath}/${k}`)).toContain(containerEnv(c).TRACEJUDGE_CONFIG);
  });

  it('probes /healthz (liveness) and /readyz (readiness) on the metrics port, the service default', () => {
    const defaults = checkConfigText('{}', {}).config;
    expect(defaults?.emit.prometheus.port).toBe(9464);
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(portOf(c.livenessProbe.httpGet.port)).toBe(defaults?.emit.prometheus.port);
    expect(portOf(c.readinessProbe.httpGet.port)).toBe(defaults?.emit.prometheus.port);
    expect(portOf('otlp-http')).toBe(defaults?.sources.otlp.http.port);
    expect(portOf('otlp-grpc')).toBe(defaults?.sources.otlp.grpc.port);
  });

  it("loads its config with the image's and the container's env: listeners on 0.0.0.0 at the container ports", () => {
    const file = cm.data['tracejudge.yaml'] as string;
    const check = checkConfigText(file, { ...imageEnv(), ...containerEnv(c) });
    expect(check.issues).toEqual([]);
    const config = check.config;
    const listeners = { 'otlp-http': config?.sources.otlp.http, 'otlp-grpc': config?.sources.otlp.grpc, metrics: config?.emit.prometheus };
    for (const [port, l] of Object.entries(listeners)) {
      expect(l?.host, port).toBe('0.0.0.0');
      expect(l?.port, port).toBe(portOf(port));
    }
    // The image alone (no container env) already listens on every address.
    expect(checkConfigText(file, imageEnv()).config?.sources.otlp.http.host).toBe('0.0.0.0');
  });

  it('sets only TRACEJUDGE_ variables the service reads and docs/configuration.md documents', () => {
    const read = variablesTheServiceReads();
    const docs = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const used = c.env.map((e) => e.name).filter((n) => n.startsWith('TRACEJUDGE_'));
    expect(used.length).toBeGreaterThan(3);
    for (const n of used) {
      expect(read.has(n), `${n} is read by src/`).toBe(true);
      expect(docs, `${n} in docs/configuration.md`).toContain(`\`${n}\``);
    }
    expect(read.has('TRACEJUDGE_NOT_A_VARIABLE')).toBe(false);
    for (const n of Object.keys(LISTEN_ENV)) expect(used).toContain(n);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

describe('serve with the example config and env', { timeout: 60_000 }, () => {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tj-k8s-'));
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz on TRACEJUDGE_METRICS_PORT and OTLP/HTTP on TRACEJUDGE_OTLP_HTTP_PORT', async () => {
    writeFileSync(join(dir, 'tracejudge.yaml'), cm.data['tracejudge.yaml'] as string);
    const [http, grpc, metrics] = [await freePort(), await freePort(), await freePort()];
    const env = cliEnv('warn', {
      ...imageEnv(),
      ...containerEnv(c),
      NODE_ENV: 'test',
      TRACEJUDGE_CONFIG: join(dir, 'tracejudge.yaml'),
      TRACEJUDGE_OTLP_HTTP_PORT: String(http),
      TRACEJUDGE_OTLP_GRPC_PORT: String(grpc),
      TRACEJUDGE_METRICS_PORT: String(metrics),
    });
    child = startCli(['serve'], env);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const deadline = Date.now() + 45_000;
    let ready: number | undefined;
    while (Date.now() < deadline && ready !== 200) {
      ready = await fetch(`http://127.0.0.1:${metrics}${c.readinessProbe.httpGet.path}`).then(
        (r) => r.status,
        () => undefined,
      );
      if (ready !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(ready, stderr).toBe(200);
    expect((await fetch(`http://127.0.0.1:${metrics}${c.livenessProbe.httpGet.path}`)).status).toBe(200);
    const otlp = await fetch(`http://127.0.0.1:${http}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"resourceSpans":[]}' });
    expect(otlp.status).toBe(200);
  });
});
