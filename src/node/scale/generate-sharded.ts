// `generate --shards N`: a sharded set (core/scale/layout.ts) written by one process. Entries are
// spilled by child, then each shard is written (shard-set.ts writeShardStems), the index last: memory holds one
// child's entries at a time, not the set.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { join } from 'node:path';
import { SitemapError, plural } from '../../core/errors.js';
import type { UrlEntry } from '../../core/model.js';
import { normalizeUrl } from '../../core/url.js';
import { Spill } from './spill.js';
import { manifestFileName } from '../../core/scale/layout.js';
import { StagedOutput } from '../staged-output.js';
import type { WriteSitemapsOptions, WriteSummary, WrittenFile } from '../write-sitemaps.js';
import { stopIfAborted } from '../io-errors.js';
import { admit, checkNamesApart, placedEntry, setSerializer, shardSettings, writeIndexFromManifests, writeShardStems, type IndexFile, type PlacedEntry, type ShardSetOptions } from './shard-set.js';

/** With writeSitemaps' handling of refused entries, progress and abort. */
export interface ShardedGenerateOptions extends ShardSetOptions, Pick<WriteSitemapsOptions, 'onInvalid' | 'replaceInvalid' | 'prepare' | 'onProgress' | 'signal'> {
  /** Children per index file (default 50,000). */
  maxSitemapsPerIndex?: number;
}

export async function writeShardedSet(entries: Iterable<UrlEntry | readonly UrlEntry[]> | AsyncIterable<UrlEntry | readonly UrlEntry[]>, options: ShardedGenerateOptions): Promise<WriteSummary & { indexFiles: IndexFile[] }> {
  const started = performance.now();
  const settings = shardSettings(options);
  // Holds the set's lock (staged-output.ts) for the whole run, as writeSitemaps' output does.
  const spill = await StagedOutput.create(settings.outDir, { name: settings.name, gzipLevel: 0, exclusive: true });
  try {
    const serializer = setSerializer(settings);
    const spilled = new Spill((stem) => spill.path(`entries-${stem}`), 64 * 1024 * 1024);
    let urls = 0;
    let rejected = 0;
    const place = (entry: UrlEntry): PlacedEntry => placedEntry(serializer, settings, entry);
    const write = (entry: UrlEntry): void => {
      const placed = admit(entry, options, place);
      if (placed === null) rejected++;
      else if (placed !== undefined) {
        spilled.add(placed.child, placed.item.loc, placed.item);
        urls++;
      }
    };
    let batches = 0;
    let read = 0;
    for await (const batch of entries as AsyncIterable<UrlEntry | readonly UrlEntry[]>) {
      for (const entry of Array.isArray(batch) ? (batch as readonly UrlEntry[]) : [batch as UrlEntry]) {
        write(entry);
        // An array's entries come without a turn of the event loop (a queue job's lock is renewed by a timer): one every 4,096.
        if ((++read & 4095) === 0) await nextTurn();
      }
      stopIfAborted(options.signal);
      if ((++batches & 63) === 0) options.onProgress?.({ urls, files: 0, rejected, duplicates: 0, elapsedMs: performance.now() - started });
    }
    if (urls === 0) throw emptyInput(rejected);
    // Before a shard is written: its children are placed beside the published sets.
    await checkNamesApart(settings.outDir, settings.name, spilled.keys());
    const manifests: string[] = [];
    const stemsOf: string[][] = Array.from({ length: settings.shards }, () => []);
    for (const stem of spilled.keys()) (stemsOf[Number(stem.slice(stem.lastIndexOf('.') + 1))] as string[]).push(stem);
    for (let shard = 0; shard < settings.shards; shard++) {
      // In the temporary folder: the set's manifests stay those of the published set until the index.
      const manifestPath = spill.path(manifestFileName(settings.name, shard, settings.shards));
      await writeShardStems(settings, shard, stemsOf[shard] as string[], (stem) => spilled.takeBytes(stem), { durable: false, manifestPath });
      manifests.push(manifestPath);
      stopIfAborted(options.signal);
    }
    const set = await writeIndexFromManifests({ manifests, outDir: settings.outDir, syncChildren: true, maxSitemapsPerIndex: options.maxSitemapsPerIndex });
    const first = set.indexFiles[0] as IndexFile;
    const sitemaps: WrittenFile[] = set.files.map((file) => ({ name: file.name, path: join(settings.outDir, file.name), loc: normalizeUrl(file.name, 'loc', settings.baseUrl), urls: file.urls, bytes: file.bytes, diskBytes: file.diskBytes, ...(file.lastmod !== undefined ? { lastmod: file.lastmod } : {}) }));
    return {
      outDir: settings.outDir,
      entryFile: { name: first.name, path: first.path, loc: first.loc, urls: 0, bytes: 0, diskBytes: 0 },
      indexFiles: set.indexFiles,
      indexed: true,
      sitemaps,
      urls: set.urls,
      duplicates: set.duplicates,
      rejected,
      bytes: set.bytes,
      diskBytes: set.diskBytes,
      removed: set.removed,
      durationMs: performance.now() - started,
    };
  } finally {
    await spill.abort();
  }
}

/** The refusal of an input without a URL to write (`rejected` of its entries refused). */
export function emptyInput(rejected: number): SitemapError {
  return new SitemapError('ERR_SITEMAP_EMPTY', rejected > 0 ? `no URL could be written: every entry was refused (${plural(rejected, 'entry', 'entries')})` : 'no URLs to write: the input lists none');
}
