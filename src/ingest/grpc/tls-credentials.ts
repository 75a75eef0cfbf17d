/**
 * gRPC server credentials that follow a {@link TlsReloader}: the same as `ServerCredentials.createSsl(ca,
 * [{ cert_chain, private_key }], clientCaFile !== undefined)`, plus the minimum TLS version, and reloaded
 * certificates reach the running server. grpc-js (≥ 1.10) hands new secure-context options of its
 * credentials to `setSecureContext` on its HTTP/2 servers (`updateSecureContextOptions`, the mechanism behind
 * its experimental certificate providers), so new connections get the new certificate without a restart.
 */
import { ServerCredentials } from '@grpc/grpc-js';
import type { SecureServerOptions } from 'node:http2';
import type { SecureContextOptions } from 'node:tls';
import type { ServerTlsOptions } from '../../tls/material.js';
import type { TlsReloader } from '../../tls/reloader.js';

function contextOptions(o: ServerTlsOptions): SecureContextOptions {
  return { cert: o.cert, key: o.key, ...(o.ca ? { ca: o.ca } : {}), minVersion: o.minVersion };
}

class ReloadingServerCredentials extends ServerCredentials {
  constructor(reloader: TlsReloader) {
    const o = reloader.options;
    // requestCert with Node's default rejectUnauthorized: a client without a valid certificate fails the handshake.
    const constructorOptions: SecureServerOptions = { requestCert: o.requestCert, rejectUnauthorized: o.rejectUnauthorized, minVersion: o.minVersion };
    super(constructorOptions, contextOptions(o));
    reloader.onReload((next) => this.updateSecureContextOptions(contextOptions(next)));
  }

  _equals(other: ServerCredentials): boolean {
    return other === this;
  }
}

/** Credentials for `grpc.Server.bindAsync` that serve `reloader`'s certificate, current at each new connection. */
export function reloadingServerCredentials(reloader: TlsReloader): ServerCredentials {
  return new ReloadingServerCredentials(reloader);
}
