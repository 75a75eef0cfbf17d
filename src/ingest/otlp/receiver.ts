import type { Component } from '../../component.js';

/**
 * An OTLP receiver: a component whose `start` binds and starts serving, and whose `shutdown` stops intake
 * (new requests get 503 / UNAVAILABLE), lets in-flight requests finish within the grace period and the
 * deadline, and closes the listener.
 */
export interface OtlpReceiver extends Component {
  /** The bound port once started (useful with port 0), else the configured one. */
  readonly port: number;
}

/** The receiver over its lifecycle component and its bound port. */
export function receiverOf(lifecycle: Component, port: () => number): OtlpReceiver {
  return {
    name: lifecycle.name,
    get port() {
      return port();
    },
    start: () => lifecycle.start(),
    shutdown: (deadline) => lifecycle.shutdown(deadline),
  };
}

/** True when `header` is exactly `Bearer <token>`, compared without early exit. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const expected = `Bearer ${token}`;
  const a = Buffer.from(header);
  const b = Buffer.from(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ (b[i] as number);
  return diff === 0;
}
