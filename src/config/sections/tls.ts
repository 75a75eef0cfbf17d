import { z } from 'zod';

/**
 * TLS on a listener (`sources.otlp.http.tls`, `sources.otlp.grpc.tls`, `emit.prometheus.tls`): absent, the
 * listener speaks plaintext. Paths are PEM files, relative ones resolved from the working directory. The
 * files are read when the listener starts (a missing or unreadable file is an error naming it) and read
 * again when they change (docs/tls.md).
 */
export const tlsServerSettings = z
  .strictObject({
    /** The server certificate (chain), PEM. */
    certFile: z.string().min(1),
    /** Its private key, PEM (unencrypted). */
    keyFile: z.string().min(1),
    /** When set (mTLS), clients must present a certificate signed by one of these CAs or the handshake is refused. */
    clientCaFile: z.string().min(1).optional(),
    /** The oldest TLS version offered. */
    minVersion: z.enum(['TLSv1.2', 'TLSv1.3']).default('TLSv1.2'),
    /** How often the files' modification times are checked; changed files are loaded for new connections. */
    reloadIntervalMs: z.number().int().min(100).max(3_600_000).default(30_000),
  })
  .optional();

/** The validated `tls` of one listener (undefined: plaintext). */
export type TlsServerConfig = NonNullable<z.output<typeof tlsServerSettings>>;
