/**
 * Checks docker-compose.yml and the files it mounts without a Docker engine: they parse, every mounted file
 * exists, ports/topics/hosts agree across the configs, and the collector config only uses option names that
 * the collector components document.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');
type Obj = Record<string, unknown>;
const yaml = (path: string): Obj => parse(read(path)) as Obj;
const obj = (v: unknown, what: string): Obj => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what}: expected a mapping`);
  return v as Obj;
};
const at = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
const port = (hostPort: string): number => Number(hostPort.split(':').pop());

const compose = yaml('docker-compose.yml');
const services = obj(compose.services, 'services');
const collector = yaml('config/otel-collector.yaml');
const tempo = yaml('config/tempo.yaml');
const promConfig = yaml('config/prometheus/prometheus.yml');
const tjText = read('config/compose/tracejudge.yaml');
const tj = parseConfigText(tjText, 'config/compose/tracejudge.yaml', {});

/** `./host:container[:ro]` bind mounts of a service, as [host, container]. */
function mounts(service: string): [string, string][] {
  const volumes = (obj(services[service], service).volumes as string[] | undefined) ?? [];
  return volumes.filter((v) => v.startsWith('./')).map((v) => {
    const [host = '', container = ''] = v.split(':');
    return [host, container];
  });
}
function containerPathOf(service: string, hostPath: string): string | undefined {
  return mounts(service).find(([h]) => h === hostPath)?.[1];
}

describe('docker-compose.yml', () => {
  it('has the whole stack', () => {
    expect(Object.keys(services).sort()).toEqual(['grafana', 'kafka', 'otel-collector', 'prometheus', 'tempo', 'tracejudge']);
    for (const [name, s] of Object.entries(services)) expect(typeof obj(s, name).image, `${name}.image`).toBe('string');
  });

  it('mounts only files and directories that exist', () => {
    let count = 0;
    for (const name of Object.keys(services)) {
      for (const [host] of mounts(name)) {
        count++;
        expect(existsSync(`${root}${host.slice(2)}`), `${name}: ${host}`).toBe(true);
      }
    }
    // tracejudge runs from its image (Dockerfile) and mounts only its config.
    expect(count).toBeGreaterThanOrEqual(9);
  });

  it('runs Kafka in KRaft mode with the listener everyone uses', () => {
    const env = obj(obj(services.kafka, 'kafka').environment, 'kafka.environment');
    expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(String(env.KAFKA_ADVERTISED_LISTENERS)).toContain('PLAINTEXT://kafka:9092');
    expect(at(collector, 'exporters.kafka.brokers')).toEqual(['kafka:9092']);
    expect(tj.sources.kafka.brokers).toEqual(['kafka:9092']);
    expect(tj.emit.kafka.brokers).toEqual(['kafka:9092']);
  });

  it('has the collector write the topic and encoding tracejudge reads, one message per trace', () => {
    expect(at(collector, 'exporters.kafka.partition_traces_by_id')).toBe(true);
    expect(at(collector, 'exporters.kafka.traces.topic')).toBe(tj.sources.kafka.topic);
    expect(at(collector, 'exporters.kafka.traces.encoding')).toBe(tj.sources.kafka.encoding);
    expect(tj.sources.kafka.enabled).toBe(true);
    expect(tj.emit.kafka.topic).not.toBe(tj.sources.kafka.topic);
  });

  it('sends tracejudge results to a collector receiver whose pipelines never reach Kafka', () => {
    const endpoint = new URL(tj.emit.otlp.endpoint ?? '');
    expect(endpoint.hostname).toBe('otel-collector');
    const protocol = tj.emit.otlp.protocol === 'grpc' ? 'grpc' : 'http';
    expect(port(String(at(collector, `receivers.otlp/results.protocols.${protocol}.endpoint`)))).toBe(Number(endpoint.port));
    const pipelines = obj(at(collector, 'service.pipelines'), 'pipelines');
    for (const [name, p] of Object.entries(pipelines)) {
      const pipe = obj(p, name);
      if ((pipe.receivers as string[]).includes('otlp/results')) expect(pipe.exporters, name).not.toContain('kafka');
    }
    const apps = obj(pipelines['traces/apps'], 'traces/apps');
    expect(apps.exporters).toEqual(expect.arrayContaining(['kafka', 'otlp_grpc/tempo']));
    // Applications reach the collector on the published OTLP ports.
    const published = (obj(services['otel-collector'], 'otel-collector').ports as string[]).map((p) => p.split(':')[0]);
    expect(published).toEqual(expect.arrayContaining([String(port(String(at(collector, 'receivers.otlp.protocols.grpc.endpoint')))), String(port(String(at(collector, 'receivers.otlp.protocols.http.endpoint'))))]));
    expect(containerPathOf('otel-collector', './config/otel-collector.yaml')).toBe('/etc/otelcol-contrib/config.yaml');
  });

  it('forwards traces to the port Tempo receives OTLP/gRPC on', () => {
    expect(at(collector, 'exporters.otlp_grpc/tempo.endpoint')).toBe(`tempo:${port(String(at(tempo, 'distributor.receivers.otlp.protocols.grpc.endpoint')))}`);
    expect(containerPathOf('tempo', './config/tempo.yaml')).toBe('/etc/tempo.yaml');
    expect((obj(services.tempo, 'tempo').command as string[]).join(' ')).toContain('/etc/tempo.yaml');
  });

  it('has Prometheus scrape tracejudge /metrics on the configured port and load the mounted rules', () => {
    const job = (promConfig.scrape_configs as Obj[])[0] ?? {};
    expect(job.metrics_path).toBe('/metrics');
    const targets = at((job.static_configs as Obj[])[0], 'targets') as string[];
    expect(targets).toEqual([`tracejudge:${tj.emit.prometheus.port}`]);
    expect(tj.emit.prometheus.host).toBe('0.0.0.0');
    expect(tj.emit.prometheus.enabled).toBe(true);
    expect((obj(services.tracejudge, 'tracejudge').expose as string[]).map(String)).toContain(String(tj.emit.prometheus.port));
    expect(promConfig.rule_files).toEqual([containerPathOf('prometheus', './config/prometheus/rules.yml')]);
    expect(containerPathOf('prometheus', './config/prometheus/prometheus.yml')).toBe('/etc/prometheus/prometheus.yml');
  });

  it('runs tracejudge with the mounted config', () => {
    const s = obj(services.tracejudge, 'tracejudge');
    const target = containerPathOf('tracejudge', './config/compose/tracejudge.yaml');
    expect(target).toBeDefined();
    expect((s.command as string[]).join(' ')).toContain(`serve -c ${target}`);
  });

  it('provisions Grafana with the datasources, the dashboard and the alerts', () => {
    const ds = yaml('config/grafana/provisioning/datasources/datasources.yaml');
    const sources = ds.datasources as { uid: string; url: string; type: string }[];
    expect(sources.find((d) => d.uid === 'prometheus')?.url).toBe('http://prometheus:9090');
    expect(sources.find((d) => d.uid === 'tempo')?.url).toBe(`http://tempo:${String(at(tempo, 'server.http_listen_port'))}`);
    const provider = (yaml('config/grafana/provisioning/dashboards/tracejudge.yaml').providers as Obj[])[0];
    expect(at(provider, 'options.path')).toBe(containerPathOf('grafana', './config/grafana/dashboards'));
    expect(containerPathOf('grafana', './config/grafana/provisioning/alerting')).toBe('/etc/grafana/provisioning/alerting');
  });
});

/**
 * Option names per collector component, from the component READMEs (receiver/otlpreceiver, exporter/kafkaexporter,
 * exporter/otlpexporter — `otlp_grpc` since v0.144.0, `otlp` before —, exporter/debugexporter, processor/batchprocessor).
 */
const KNOWN_OPTIONS: Record<string, readonly string[]> = {
  'receivers.otlp': ['protocols', 'protocols.grpc', 'protocols.http', 'protocols.grpc.endpoint', 'protocols.http.endpoint', 'protocols.grpc.max_recv_msg_size_mib', 'protocols.http.cors', 'protocols.grpc.tls', 'protocols.http.tls'],
  'exporters.kafka': [
    'brokers', 'protocol_version', 'client_id', 'traces', 'traces.topic', 'traces.encoding', 'logs', 'logs.topic', 'logs.encoding', 'metrics', 'metrics.topic',
    'metrics.encoding', 'partition_traces_by_id', 'partition_logs_by_trace_id', 'partition_metrics_by_resource_attributes', 'producer', 'producer.max_message_bytes',
    'producer.compression', 'producer.required_acks', 'producer.linger', 'producer.flush_max_messages', 'timeout', 'retry_on_failure', 'sending_queue', 'tls', 'auth',
    'record_headers', 'include_metadata_keys', 'topic_from_attribute', 'metadata',
  ],
  'exporters.otlp_grpc': ['endpoint', 'tls', 'tls.insecure', 'headers', 'compression', 'timeout', 'sending_queue', 'retry_on_failure', 'balancer_name', 'auth', 'keepalive'],
  'exporters.debug': ['verbosity', 'sampling_initial', 'sampling_thereafter', 'use_internal_logger'],
  'processors.batch': ['send_batch_size', 'send_batch_max_size', 'timeout', 'metadata_keys', 'metadata_cardinality_limit'],
};

function optionPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Obj).flatMap(([k, v]) => {
    const p = prefix ? `${prefix}.${k}` : k;
    return [p, ...optionPaths(v, p)];
  });
}

describe('config/otel-collector.yaml', () => {
  it('uses only documented option names for each component', () => {
    let checked = 0;
    for (const kind of ['receivers', 'processors', 'exporters'] as const) {
      for (const [id, settings] of Object.entries(obj(collector[kind], kind))) {
        const type = id.split('/')[0] ?? id;
        const known = KNOWN_OPTIONS[`${kind}.${type}`];
        expect(known, `${kind}.${id}: unknown component type`).toBeDefined();
        for (const path of optionPaths(settings)) {
          expect(known, `${kind}.${id}.${path}`).toContain(path);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('defines every component a pipeline names, and uses every component it defines', () => {
    const pipelines = obj(at(collector, 'service.pipelines'), 'pipelines');
    const used = new Set<string>();
    for (const [name, p] of Object.entries(pipelines)) {
      expect(['traces', 'logs', 'metrics']).toContain(name.split('/')[0]);
      for (const kind of ['receivers', 'processors', 'exporters'] as const) {
        for (const id of (obj(p, name)[kind] as string[] | undefined) ?? []) {
          expect(obj(collector[kind], kind)[id], `${name} ${kind} ${id}`).toBeDefined();
          used.add(`${kind}.${id}`);
        }
      }
    }
    for (const kind of ['receivers', 'processors', 'exporters'] as const) {
      for (const id of Object.keys(obj(collector[kind], kind))) expect(used.has(`${kind}.${id}`), `${kind}.${id} unused`).toBe(true);
    }
  });
});
