/**
 * The PEM files of one TLS listener, read and checked: each file is named in the error when it is missing,
 * unreadable or not what its key says (a certificate, a private key), and a key that does not match its
 * certificate is reported with both files.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type { TlsServerConfig } from '../config/sections/tls.js';
import { ErrorCodes, errorMessage, TracejudgeError, type ConfigIssue } from '../errors.js';

/** A TLS file that cannot be used: `path` is its config key (`sources.otlp.http.tls.certFile`). */
export class TlsFileError extends TracejudgeError {
  readonly path: string;
  readonly detail: string;
  constructor(path: string, detail: string) {
    super(ErrorCodes.CONFIG_INVALID, `${path}: ${detail}`);
    this.name = 'TlsFileError';
    this.path = path;
    this.detail = detail;
  }
}

/** What a TLS server needs: the secure context's options plus whether client certificates are required. */
export interface ServerTlsOptions extends SecureContextOptions {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
  minVersion: 'TLSv1.2' | 'TLSv1.3';
  /** True with `clientCaFile`: a client without a certificate signed by `ca` fails the handshake. */
  requestCert: boolean;
  rejectUnauthorized: boolean;
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EACCES: 'cannot be read: permission denied (EACCES)',
  EISDIR: 'is a directory, not a file (EISDIR)',
};

function readPem(path: string, file: string): Buffer {
  try {
    return readFileSync(resolve(file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new TlsFileError(path, `file ${file} ${READ_ERRORS[code] ?? `cannot be read: ${errorMessage(err)}`}`);
  }
}

function checkCertificate(path: string, file: string, pem: Buffer): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (err) {
    throw new TlsFileError(path, `file ${file} is not a PEM certificate (${errorMessage(err)})`);
  }
}

/**
 * Read and check the files of `config`; `path` is the key of the `tls` section (`emit.prometheus.tls`).
 * Throws {@link TlsFileError} naming the key and the file.
 */
export function loadServerTls(config: TlsServerConfig, path: string): ServerTlsOptions {
  const cert = readPem(`${path}.certFile`, config.certFile);
  const key = readPem(`${path}.keyFile`, config.keyFile);
  const ca = config.clientCaFile === undefined ? undefined : readPem(`${path}.clientCaFile`, config.clientCaFile);
  checkCertificate(`${path}.certFile`, config.certFile, cert);
  try {
    createPrivateKey(key);
  } catch (err) {
    throw new TlsFileError(`${path}.keyFile`, `file ${config.keyFile} is not an unencrypted PEM private key (${errorMessage(err)})`);
  }
  if (ca && config.clientCaFile !== undefined) checkCertificate(`${path}.clientCaFile`, config.clientCaFile, ca);
  const options: ServerTlsOptions = { cert, key, ...(ca ? { ca } : {}), minVersion: config.minVersion, requestCert: ca !== undefined, rejectUnauthorized: ca !== undefined };
  try {
    createSecureContext(options);
  } catch (err) {
    throw new TlsFileError(path, `certFile ${config.certFile} and keyFile ${config.keyFile} cannot be used together (${errorMessage(err)})`);
  }
  return options;
}

/** The issues of `loadServerTls` for `check-config`: none when the files are usable. */
export function serverTlsIssues(config: TlsServerConfig | undefined, path: string): ConfigIssue[] {
  if (!config) return [];
  try {
    loadServerTls(config, path);
    return [];
  } catch (err) {
    if (err instanceof TlsFileError) return [{ path: err.path, message: err.detail }];
    throw err;
  }
}

/** The SHA-256 fingerprint and serial number of a PEM certificate, for logs. */
export function describeCertificate(cert: Buffer): { serial: string; fingerprint256: string; validTo: string } {
  const x = new X509Certificate(cert);
  return { serial: x.serialNumber, fingerprint256: x.fingerprint256, validTo: x.validTo };
}
