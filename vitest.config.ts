import { defineConfig } from 'vitest/config';

/**
 * Tests whose assertions are figures measured under load (RSS and /healthz latency against hostile clients,
 * what a SIGKILL loses) run after the rest of the suite, one file at a time, so that the suite's other workers
 * do not take the CPU they measure. The global setup (the shared Kafka broker) is the root's and runs once;
 * the projects do not inherit it.
 */
const MEASURED = ['test/reliability/hostile-clients.test.ts', 'test/reliability/crash-safety.test.ts'];
const common = { testTimeout: 30_000, hookTimeout: 120_000, pool: 'forks', maxWorkers: 2 } as const;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { test: { ...common, name: 'suite', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: MEASURED, sequence: { groupOrder: 0 } } },
      { test: { ...common, name: 'measured', include: MEASURED, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
