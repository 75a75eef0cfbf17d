/**
 * Runs one hostile attack (helpers/hostile.ts) in a process of its own and prints its outcome as one JSON
 * line: `node --import tsx hostile-child.ts '{"attack": "grpc-streams", ...options}'`. The suite starts it at
 * the lowest CPU priority, as a stand-in for attackers on other machines: on the 2 shared cores here, a
 * client pushing gigabytes through the loopback device would otherwise take the CPU the service needs,
 * and `/healthz` would measure the client, not the service.
 */
import { oversizePosts, singleSpanTraces, stalledGrpcStreams, stalledHttpBodies } from './hostile.js';

type Command =
  | ({ attack: 'grpc-streams' } & Parameters<typeof stalledGrpcStreams>[0])
  | ({ attack: 'http-bodies' } & Parameters<typeof stalledHttpBodies>[0])
  | ({ attack: 'oversize' } & Parameters<typeof oversizePosts>[0])
  | { attack: 'many-traces'; port: number; token: string; traces: number; seed: number };

async function run(c: Command): Promise<unknown> {
  switch (c.attack) {
    case 'grpc-streams':
      return stalledGrpcStreams(c);
    case 'http-bodies':
      return stalledHttpBodies(c);
    case 'oversize':
      return oversizePosts(c);
    case 'many-traces': {
      const body = singleSpanTraces(c.traces, c.seed);
      const res = await fetch(`http://127.0.0.1:${c.port}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${c.token}` }, body });
      return { status: res.status, requestBytes: body.length, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
    }
  }
}

run(JSON.parse(process.argv[2] ?? '{}') as Command).then(
  (out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`hostile attack failed: ${String(err)}\n`);
    process.exit(1);
  },
);
