/**
 * Client TLS of the Kafka emitter (`emit.kafka.ssl`, passed to kafkajs as `sources.kafka.ssl` is): pointed at a
 * TLS listener standing in for a broker (the shared test broker is plaintext), the emitter completes a TLS
 * handshake that verifies the server against the configured CA and presents the configured client
 * certificate; without `ssl` it sends Kafka bytes in clear, which the listener sees as a failed handshake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { emitSection } from '../../src/config/sections/emit.js';
import { KafkaSender } from '../../src/emit/kafka.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { makePki, opensslMissing, pem, suiteName, type Issued, type TestPki } from './certs.js';

describe.skipIf(opensslMissing !== undefined)(suiteName('Kafka emitter client TLS'), () => {
  let pki: TestPki;
  let client: Issued;
  let server: Server;
  let port: number;
  const handshakes: string[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    pki = makePki();
    const s = pki.server('broker', 0x1001);
    client = pki.client('client', 0x3001);
    server = createServer({ cert: pem(s.cert), key: pem(s.key), ca: pem(pki.ca.cert), requestCert: true, rejectUnauthorized: true }, (socket: TLSSocket) => {
      handshakes.push(socket.getPeerCertificate().serialNumber);
      socket.destroy();
    });
    server.on('tlsClientError', (err) => failures.push(err.message));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    pki.dispose();
  });

  async function sendOnce(ssl: unknown): Promise<string> {
    const options = emitSection.parse({ kafka: { enabled: true, brokers: [`127.0.0.1:${port}`], requestTimeoutMs: 2000, ...(ssl === undefined ? {} : { ssl }) } }).kafka;
    const sender = new KafkaSender({ brokers: options.brokers, topic: options.topic, clientId: options.clientId, requestTimeoutMs: options.requestTimeoutMs, ssl: options.ssl }, silentLogger());
    const result = await sender.send([]);
    await sender.close().catch(() => undefined);
    return result.code;
  }

  it('with ssl it verifies the broker against the CA and presents the client certificate', async () => {
    const code = await sendOnce({ ca: [pem(pki.ca.cert).toString()], cert: pem(client.cert).toString(), key: pem(client.key).toString(), servername: 'localhost' });
    expect(code).toBe('retryable');
    expect(handshakes).toContain('3001');
  }, 20_000);

  it('with ssl trusting another anchor than the broker\'s CA, it refuses the broker: no handshake completes', async () => {
    const before = handshakes.length;
    // The client's own leaf certificate as the only trust anchor: the broker's certificate does not chain to it.
    const code = await sendOnce({ ca: [pem(client.cert).toString()], cert: pem(client.cert).toString(), key: pem(client.key).toString(), servername: 'localhost' });
    expect(code).toBe('retryable');
    expect(handshakes).toHaveLength(before);
  }, 20_000);

  it('without ssl no TLS handshake completes', async () => {
    const before = handshakes.length;
    failures.length = 0;
    expect(await sendOnce(undefined)).toBe('retryable');
    expect(handshakes).toHaveLength(before);
    expect(failures.length).toBeGreaterThan(0);
  }, 20_000);
});
