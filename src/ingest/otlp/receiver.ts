/** The lifecycle every OTLP receiver shares (Collector-style: built by a factory, started, shut down). */
export interface OtlpReceiver {
  /** Binds and starts serving; resolves to the bound port (useful with port 0). */
  start(): Promise<number>;
  /** Stops intake and closes the listener; safe to call twice (the second call returns the same promise). */
  shutdown(): Promise<void>;
  /** The bound port once started, else the configured one. */
  readonly port: number;
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
