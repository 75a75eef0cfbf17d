#!/usr/bin/env bash
# Stops the broker started by start.sh: SIGTERM for a clean shutdown, SIGKILL after 30 s.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="${TRACEJUDGE_KAFKA_DIR:-$root/.kafka}"
pidfile="$state/broker.pid"
[ -f "$pidfile" ] || { echo "kafka: no broker pid file"; exit 0; }
pid="$(cat "$pidfile")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then echo "kafka: broker did not stop in 30 s, killing" >&2; kill -KILL "$pid"; fi
fi
rm -f "$pidfile"
echo "kafka: broker stopped"
