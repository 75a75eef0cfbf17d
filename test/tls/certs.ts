/**
 * Test certificates made by the `openssl` command line in a temporary directory: a CA, server certificates
 * for 127.0.0.1 / localhost (subjectAltName) and client certificates, each with a chosen serial number so a
 * test can tell which certificate a server presented.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why the TLS tests cannot run here, or undefined when `openssl` is available. */
export const opensslMissing: string | undefined = (() => {
  const r = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : 'the openssl command is not available: TLS tests need it to make certificates';
})();

/** A suite's name, with the reason it is skipped when `openssl` is missing (vitest prints it with the skip). */
export function suiteName(name: string): string {
  return opensslMissing ? `${name} (skipped: ${opensslMissing})` : name;
}

export interface Issued {
  cert: string;
  key: string;
  /** Upper-case hex, as `X509Certificate.serialNumber` and `getPeerCertificate().serialNumber` give it. */
  serial: string;
}

export interface TestPki {
  dir: string;
  /** The CA certificate and key. */
  ca: Issued;
  /** A server certificate for 127.0.0.1 and localhost, signed by the CA, written to `<name>.pem` / `<name>.key`. */
  server(name: string, serial: number): Issued;
  /** A client certificate signed by the CA (or by `other`, a second unrelated CA). */
  client(name: string, serial: number, by?: 'ca' | 'other'): Issued;
  /** Remove the directory. */
  dispose(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function makeCa(dir: string, name: string, serial: number): Issued {
  openssl(
    ['req', '-x509', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`, '-set_serial', String(serial),
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    dir,
  );
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`), serial: serial.toString(16).toUpperCase().padStart(2, '0') };
}

function sign(dir: string, ca: Issued, name: string, serial: number, ext: string): Issued {
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(['req', ...EC_KEY, '-keyout', `${name}.tmp.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', ca.cert, '-CAkey', ca.key, '-set_serial', String(serial), '-days', '2', '-out', `${name}.tmp.pem`, '-extfile', `${name}.ext`], dir);
  // Renamed into place, key first then certificate, as a rotation tool would write them.
  renameSync(join(dir, `${name}.tmp.key`), join(dir, `${name}.key`));
  renameSync(join(dir, `${name}.tmp.pem`), join(dir, `${name}.pem`));
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`), serial: serial.toString(16).toUpperCase().padStart(2, '0') };
}

/** A fresh CA (and a second, unrelated one) in a new temporary directory. */
export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'tracejudge-tls-'));
  const ca = makeCa(dir, 'ca', 0x1000);
  const other = makeCa(dir, 'other-ca', 0x2000);
  return {
    dir,
    ca,
    server: (name, serial) => sign(dir, ca, name, serial, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n'),
    client: (name, serial, by = 'ca') => sign(dir, by === 'ca' ? ca : other, name, serial, 'extendedKeyUsage=clientAuth\n'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The file's bytes. */
export const pem = (path: string): Buffer => readFileSync(path);
