/**
 * Runs inside a private mount namespace with a tiny tmpfs at argv[2] (see test/emit/jsonl-tmpfs.test.ts): writes
 * score records through the real JSON-lines sender until the disk is really full (ENOSPC from the kernel), frees
 * the space, writes on, and copies the file to argv[3] with a summary in argv[3].json.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlFileSender } from '../../../src/emit/jsonl-file.js';
import { scoreRecord } from '../records.js';

const [dir, out] = process.argv.slice(2) as [string, string];
const path = join(dir, 'scores.jsonl');
// The filler takes most of the disk; deleting it is the operator freeing space.
writeFileSync(join(dir, 'filler'), Buffer.alloc(96 * 1024));
const sender = new JsonlFileSender({ path, maxBytes: 10 * 1024 * 1024, maxFiles: 2 });
const acknowledged: string[] = [];
let sent = 0;
let enospc = 0;
let freed = false;
for (let i = 0; i < 30; i++) {
  const batch = Array.from({ length: 3 }, (_, j) => scoreRecord({ scorer: `s${i}-${j}`, reason: `${'x'.repeat(700)} ${i}-${j}` }));
  sent += batch.length;
  for (;;) {
    const result = await sender.send(batch);
    if (result.code === 'success') {
      acknowledged.push(...batch.map((r) => r.evaluationId));
      break;
    }
    if (result.code === 'permanent' || !/ENOSPC/.test(result.error.message) || freed) throw new Error(`unexpected: ${result.code} ${result.error.message}`);
    enospc++;
    // Snapshot of the file right after the failed write: it must already be whole lines.
    copyFileSync(path, `${out}.at-enospc`);
    rmSync(join(dir, 'filler'));
    freed = true;
  }
}
await sender.close();
copyFileSync(path, out);
writeFileSync(`${out}.json`, JSON.stringify({ sent, acknowledged, enospc }));
