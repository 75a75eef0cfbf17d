/**
 * Starts the services the whole test run shares: a real single-node Kafka broker on 127.0.0.1:9092
 * (scripts/kafka/start.sh, idempotent). It is stopped afterwards when this run started it, unless
 * TRACEJUDGE_KAFKA_KEEP=1. Set TRACEJUDGE_KAFKA=off to run without a broker (Kafka tests then skip
 * and say so).
 */
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function brokerAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 9092 });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export default async function setup(): Promise<() => void> {
  if (process.env.TRACEJUDGE_KAFKA === 'off') return () => {};
  const wasRunning = await brokerAnswers();
  if (!wasRunning) {
    execFileSync('bash', ['scripts/kafka/start.sh'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
  }
  process.env.TRACEJUDGE_TEST_KAFKA = '127.0.0.1:9092';
  return () => {
    if (!wasRunning && process.env.TRACEJUDGE_KAFKA_KEEP !== '1') {
      execFileSync('bash', ['scripts/kafka/stop.sh'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 60_000 });
    }
  };
}
