import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/ingest/otlp/close-gracefully.js';

describe('closeGracefully', () => {
  it('resolves when the server closes within the grace period, without forcing it', async () => {
    let forced = false;
    await closeGracefully((done) => setTimeout(done, 5), () => (forced = true), 1000);
    expect(forced).toBe(false);
  });

  it('forces a server that does not close by itself once the grace period is over', async () => {
    let pending: (() => void) | undefined;
    const started = Date.now();
    await closeGracefully(
      (done) => (pending = done),
      () => pending?.(), // forcing cuts the stragglers, and the server then reports closed
      50,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
