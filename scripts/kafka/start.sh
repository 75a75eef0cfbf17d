#!/usr/bin/env bash
# Starts a single-node Apache Kafka broker (KRaft) on 127.0.0.1:9092 for development and tests.
# Idempotent: returns at once when a broker already answers. Fetches the broker jars from Maven Central
# with Maven the first time (into .kafka/libs, git-ignored). Logs: .kafka/broker.log. Stop: scripts/kafka/stop.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="${TRACEJUDGE_KAFKA_DIR:-$root/.kafka}"
port=${TRACEJUDGE_KAFKA_PORT:-9092}
controller_port=${TRACEJUDGE_KAFKA_CONTROLLER_PORT:-9093}

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if answers "$port"; then
  echo "kafka: a broker already answers on 127.0.0.1:$port"
  exit 0
fi

mkdir -p "$state"
if ! ls "$state"/libs/kafka_2.13-*.jar >/dev/null 2>&1; then
  echo "kafka: fetching broker jars from Maven Central"
  mvn -q -B -f "$here/pom.xml" package -Dkafka.libs.dir="$state/libs" >"$state/maven.log" 2>&1 || { cat "$state/maven.log" >&2; exit 1; }
fi

config="$state/server.properties"
cat >"$config" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$state/data
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=4
PROPS

cp="$state/libs/*"
java_opts=(-Xms256m -Xmx768m -XX:+UseG1GC -Djava.awt.headless=true
  "-Dlog4j2.configurationFile=$here/log4j2.properties" "-Dkafka.logs.file=$state/broker.log")

if [ ! -f "$state/data/meta.properties" ]; then
  cluster_id="$(java -cp "$cp" "${java_opts[@]}" kafka.tools.StorageTool random-uuid)"
  java -cp "$cp" "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$config" >>"$state/format.log" 2>&1 \
    || { cat "$state/format.log" >&2; exit 1; }
fi

nohup java -cp "$cp" "${java_opts[@]}" kafka.Kafka "$config" >>"$state/broker.stdout.log" 2>&1 &
echo $! >"$state/broker.pid"

for _ in $(seq 1 120); do
  if answers "$port" && grep -q "Kafka Server started\|\[KafkaRaftServer nodeId=1\] Kafka Server started" "$state/broker.log" 2>/dev/null; then
    echo "kafka: broker ready on 127.0.0.1:$port (pid $(cat "$state/broker.pid"), logs $state/broker.log)"
    exit 0
  fi
  if ! kill -0 "$(cat "$state/broker.pid")" 2>/dev/null; then
    echo "kafka: broker exited during start; see $state/broker.log" >&2
    tail -n 30 "$state/broker.log" "$state/broker.stdout.log" >&2 || true
    exit 1
  fi
  sleep 0.5
done
echo "kafka: broker did not become ready within 60 s; see $state/broker.log" >&2
exit 1
