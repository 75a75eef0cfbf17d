/**
 * LeaveGroup for a member id a crashed consumer could not take out of its group (the broker was down when
 * it stopped). Without it, the consumer that kafkajs restarts joins as a new member and the coordinator holds
 * the rebalance until the old member's session times out (`sessionTimeoutMs`, 30 s by default); with it the
 * rejoin takes as long as a join.
 *
 * kafkajs 2.x has no public LeaveGroup for another member id, so this uses the cluster factory every
 * kafkajs client is built with (the `private:Kafka:createCluster` symbol of a `Kafka` instance: same
 * brokers, TLS, SASL and client id as the consumer). When a kafkajs version lacks it, `leaveGroup` rejects
 * and the caller restarts without leaving, as before.
 */
import type { Kafka } from 'kafkajs';

interface Cluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(args: { groupId: string }): Promise<{ leaveGroup(args: { groupId: string; memberId: string }): Promise<unknown> }>;
}
type CreateCluster = (options: Record<string, unknown>) => Cluster;

function clusterFactory(kafka: Kafka): CreateCluster {
  const key = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const create = key === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[key];
  if (typeof create !== 'function') throw new Error('this kafkajs version has no cluster factory to send LeaveGroup with');
  return create as CreateCluster;
}

/**
 * Take `memberId` out of `groupId`. Resolves `left`, or `unknown` when the coordinator no longer knows the
 * member (it left or expired already); rejects with the error otherwise (e.g. the broker is still down).
 */
export async function leaveGroup(kafka: Kafka, groupId: string, memberId: string): Promise<'left' | 'unknown'> {
  const cluster = clusterFactory(kafka)({});
  try {
    await cluster.connect();
    const coordinator = await cluster.findGroupCoordinator({ groupId });
    await coordinator.leaveGroup({ groupId, memberId });
    return 'left';
  } catch (err) {
    if ((err as { type?: unknown }).type === 'UNKNOWN_MEMBER_ID') return 'unknown';
    throw err;
  } finally {
    await cluster.disconnect().catch(() => undefined);
  }
}
