/**
 * The `tls` keys of the three listeners in the config: bad values are reported with their key path; files
 * that cannot be used (missing, not PEM, a key that does not match its certificate) are reported by
 * `check-config` with the key and the file, as `serve` would find them; disabled listeners are not checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfigFile } from '../../src/cli/config-check.js';
import { checkConfig } from '../../src/config/load.js';
import type { ConfigIssue } from '../../src/errors.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { runCli } from '../cli/run-cli.js';
import { makePki, opensslMissing, suiteName, type TestPki } from './certs.js';

const at = (list: readonly ConfigIssue[], path: string): string[] => list.filter((i) => i.path === path).map((i) => i.message);

describe('tls keys in the config schema', () => {
  it('reports bad values with their key paths', () => {
    const { issues } = checkConfig(
      {
        sources: { otlp: { http: { tls: { certFile: 'a.pem' } }, grpc: { tls: { certFile: 'a.pem', keyFile: 'a.key', reloadIntervalMs: 10 } } } },
        emit: { prometheus: { tls: { certFile: 'a.pem', keyFile: 'a.key', minVersion: 'TLSv1.0', clientCAFile: 'ca.pem' } } },
      },
      {},
    );
    expect(at(issues, 'sources.otlp.http.tls.keyFile')).toHaveLength(1);
    expect(at(issues, 'sources.otlp.grpc.tls.reloadIntervalMs')).toHaveLength(1);
    expect(at(issues, 'emit.prometheus.tls.minVersion')).toHaveLength(1);
    expect(at(issues, 'emit.prometheus.tls.clientCAFile')).toEqual(['unknown key; did you mean "clientCaFile"?']);
  });

  it('defaults minVersion to TLSv1.2 and leaves listeners plaintext without tls', () => {
    const { config } = checkConfig({ sources: { otlp: { http: { tls: { certFile: 'a.pem', keyFile: 'a.key' } } } } }, {});
    expect(config?.sources.otlp.http.tls).toEqual({ certFile: 'a.pem', keyFile: 'a.key', minVersion: 'TLSv1.2', reloadIntervalMs: 30_000 });
    expect(config?.sources.otlp.grpc.tls).toBeUndefined();
    expect(config?.emit.prometheus.tls).toBeUndefined();
  });
});

describe.skipIf(opensslMissing !== undefined)(suiteName('check-config reads the TLS files'), () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makePki();
    pki.server('server', 0x1001);
    pki.server('other', 0x1002);
  });
  afterAll(() => pki.dispose());

  function write(name: string, lines: string[]): string {
    const file = join(pki.dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('names the key and the file of each unusable one, in one pass with the other errors', async () => {
    const d = pki.dir;
    const file = write('bad.yaml', [
      'sources:',
      '  otlp:',
      `    http: { tls: { certFile: ${d}/missing.pem, keyFile: ${d}/server.key } }`,
      `    grpc: { tls: { certFile: ${d}/server.pem, keyFile: ${d}/other.key } }`,
      'emit:',
      `  prometheus: { tls: { certFile: ${d}/server.pem, keyFile: ${d}/server.key, clientCaFile: ${d}/server.key } }`,
      'assembly: { bogus: 1 }',
    ]);
    const report = await checkConfigFile(file, { env: {}, scorers: createScorerRegistry() });
    expect(report.config).toBeUndefined();
    expect(at(report.issues, 'sources.otlp.http.tls.certFile')).toEqual([`file ${d}/missing.pem does not exist`]);
    expect(at(report.issues, 'sources.otlp.grpc.tls')).toEqual([expect.stringContaining(`certFile ${d}/server.pem and keyFile ${d}/other.key cannot be used together`)]);
    expect(at(report.issues, 'emit.prometheus.tls.clientCaFile')).toEqual([expect.stringContaining(`file ${d}/server.key is not a PEM certificate`)]);
    // Reported with the other sections' errors, in the same pass.
    expect(at(report.issues, 'assembly.bogus')).toEqual(['unknown key']);
  });

  it('accepts usable files, and skips the files of a disabled listener', async () => {
    const d = pki.dir;
    const file = write('good.yaml', [
      'sources:',
      '  otlp:',
      `    http: { tls: { certFile: ${d}/server.pem, keyFile: ${d}/server.key, clientCaFile: ${pki.ca.cert} } }`,
      `    grpc: { enabled: false, tls: { certFile: ${d}/missing.pem, keyFile: ${d}/missing.key } }`,
    ]);
    const report = await checkConfigFile(file, { env: {}, scorers: createScorerRegistry() });
    expect(report.issues).toEqual([]);
  });

  it('tracejudge check-config prints them and exits 2', async () => {
    const file = write('cli.yaml', ['emit:', `  prometheus: { tls: { certFile: ${pki.dir}/nope.pem, keyFile: ${pki.dir}/server.key } }`]);
    const r = await runCli(['check-config', '-c', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`${file}: emit.prometheus.tls.certFile: file ${pki.dir}/nope.pem does not exist`);
  }, 60_000);
});
