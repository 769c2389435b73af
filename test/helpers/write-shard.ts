// One shard of a sharded set written from the whole list of entries, as any process of a shared folder
// could write it: the steps of shard-set.ts that generate-sharded.ts and the queue's jobs take.
import type { UrlEntry } from '../../src/core/model.js';
import { placedEntry, setSerializer, shardOutput, shardSettings, writeShardStems, type ShardManifest, type ShardSetOptions } from '../../src/node/scale/shard-set.js';
import { Spill } from '../../src/node/scale/spill.js';

/** Writes the children of shard `shard` (entries of other shards skipped), then its manifest. */
export async function writeShard(options: ShardSetOptions & { shard: number; entries: Iterable<UrlEntry> }): Promise<ShardManifest> {
  const settings = shardSettings(options);
  const output = await shardOutput(settings);
  try {
    const serializer = setSerializer(settings);
    const spill = new Spill((stem) => output.path(`entries-${stem}`));
    for (const entry of options.entries) {
      const placed = placedEntry(serializer, settings, entry);
      if (placed.bucket === options.shard) spill.add(placed.child, placed.item.loc, placed.item);
    }
    return await writeShardStems(settings, options.shard, spill.keys(), (stem) => spill.takeBytes(stem), { output });
  } finally {
    await output.abort();
  }
}
