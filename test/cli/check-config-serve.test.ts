/**
 * `check-config` catches what `serve` would reject (issue #32): a URL that is not one, listeners on one port,
 * a path that cannot be written, typos (with "did you mean"), and a YAML syntax problem reported once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tj-check-serve-'));
const yaml = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
};
/** stderr lines without the file prefix. */
const issues = (stderr: string, file: string): string[] =>
  stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(`${file}: `, '').replace('tracejudge: ', ''));

describe('check-config reports what serve would reject, each at its key path', () => {
  it('a URL that is not one, listeners on one port, an unwritable path, typos: every one, once', async () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    const file = yaml('many.yaml', [
      'scorer: {}',
      'scorers:',
      '  sim: { type: content-simlarity }',
      'sources:',
      '  otlp:',
      '    http: { port: 4318, hots: 0.0.0.0 }',
      '    grpc: { port: 4318 }',
      'emit:',
      '  otlp: { endpoint: "not a url" }',
      '  prometheus: { port: 4318 }',
      `  jsonl: { path: ${join(dir, 'a-file', 'sub', 'out.jsonl')} }`,
    ]);
    const r = await runCli(['check-config', '-c', file]);
    expect(r.code).toBe(2);
    expect(issues(r.stderr, file).map((l) => l.replace(/ \(known: .*\)$/, ' (known: …)')).sort()).toEqual(
      [
        'scorer: unknown key; did you mean "scorers"?',
        'sources.otlp.http.hots: unknown key; did you mean "host"?',
        'emit.otlp.endpoint: must be an http:// or https:// URL, e.g. http://collector:4318',
        'sources.otlp.http.port: sources.otlp.grpc.port and emit.prometheus.port are 4318 too; each listener needs its own port',
        `emit.jsonl.path: cannot be written: ${join(dir, 'a-file')} is not a directory`,
        'scorers.sim.type: unknown scorer type "content-simlarity"; did you mean "content-similarity"? (known: …)',
      ].sort(),
    );
    // Not a second, wrong "needs the LLM judge" error for the typo.
    expect(r.stderr).not.toContain('needs the LLM judge');
  }, 60_000);

  it('serve rejects the same config with one line naming the key and exit 2, not a stack trace', async () => {
    const file = yaml('url.yaml', ['emit:', '  otlp: { endpoint: "not a url" }', 'sources: { otlp: { http: { port: 0 }, grpc: { port: 0 } } }', 'emit_: 1']);
    const r = await runCli(['serve', '-c', file], { env: cliEnv('warn') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`tracejudge: ${file}: emit.otlp.endpoint: must be an http:// or https:// URL`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const ports = yaml('ports.yaml', ['sources: { otlp: { http: { port: 0 }, grpc: { port: 0, host: 0.0.0.0 } } }', 'emit: { prometheus: { port: 0 } }']);
    expect((await runCli(['check-config', '-c', ports])).code).toBe(0); // port 0 (a free port) never collides
    const bad = yaml('hosts.yaml', ['sources: { otlp: { http: { host: "http://0.0.0.0:4318" } } }', 'emit: { prometheus: { host: 127.0.0.1, port: 4317 } }']);
    const h = await runCli(['check-config', '-c', bad]);
    expect(issues(h.stderr, bad).sort()).toEqual(
      [
        'sources.otlp.http.host: must be an IP address or a host name, without scheme or port (e.g. 0.0.0.0, 127.0.0.1, ::)',
        'sources.otlp.grpc.port: emit.prometheus.port is 4317 too; each listener needs its own port',
      ].sort(),
    );
  }, 60_000);

  it('one error for one YAML syntax problem: a ${VAR:-x} in a flow map, with the fix', async () => {
    const file = yaml('flow.yaml', [
      'sources:',
      '  otlp: { http: { host: ${HOST:-0.0.0.0}, port: 4318 }, grpc: { host: ${HOST:-0.0.0.0}, port: 4317 } }',
      'sampling:',
      '  default: { rate: 1 }',
      'emit:',
      '  prometheus: { host: 0.0.0.0 }',
    ]);
    const r = await runCli(['check-config', '-c', file]);
    expect(r.code).toBe(2);
    const lines = issues(r.stderr, file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^line 2, column \d+: .*\(a \$\{VAR:-default\} placeholder inside a \{ \} flow map must be quoted: "\$\{VAR:-default\}"\)$/);
    // Quoted, it is valid.
    const fixed = yaml('fixed.yaml', ['sources:', '  otlp: { http: { host: "${HOST:-0.0.0.0}", port: 0 }, grpc: { port: 0 } }', 'emit: { prometheus: { port: 0 } }']);
    expect((await runCli(['check-config', '-c', fixed])).code).toBe(0);
  }, 60_000);
});
