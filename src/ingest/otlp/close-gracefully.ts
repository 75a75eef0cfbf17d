/**
 * The shutdown both OTLP receivers share: ask the server to close, and force it after `graceMs` (in-flight
 * requests finish within the grace period; stragglers are cut).
 */
export function closeGracefully(close: (done: () => void) => void, force: () => void, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(force, graceMs);
    timer.unref();
    close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
