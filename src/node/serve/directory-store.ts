// A live source's cache in a directory, so a restart does not make every child again. Each file is its
// bodies (KEY.identity, KEY.gzip) and KEY.json, written last: the commit point. Oldest made go first.

import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkCount } from '../../core/errors.js';
import { SAFE_NAME, type Representation } from '../../core/serve/handler.js';
import type { CacheStore, CachedFile } from '../../core/serve/live-source.js';
import { writeFileAtomic } from '../staged-output.js';

interface Meta {
  madeAt: number;
  lastModified: number;
  lastmod?: string;
  urls?: number;
  identity?: { etag: string; bytes: number };
  gzip?: { etag: string; bytes: number };
}

const FORMS = ['identity', 'gzip'] as const;
/** The store's files are its own: whatever stands at a name is replaced. */
const OWN_FILE = { intoSpecial: false } as const;

export function directoryStore(dir: string, options: { maxBytes?: number } = {}): CacheStore {
  checkCount('maxBytes', options.maxBytes, 0);
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  // Sizes and ages of what is stored, read from the directory once.
  let known: Promise<Map<string, { bytes: number; madeAt: number }>> | undefined;
  const index = (): Promise<Map<string, { bytes: number; madeAt: number }>> =>
    (known ??= (async () => {
      await mkdir(dir, { recursive: true });
      const map = new Map<string, { bytes: number; madeAt: number }>();
      for (const name of await readdir(dir)) {
        if (!name.endsWith('.json')) continue;
        const meta = metaOf(await readText(join(dir, name)));
        if (meta !== undefined) map.set(name.slice(0, -5), { bytes: sizeOf(meta), madeAt: meta.madeAt });
      }
      return map;
    })());

  return {
    async get(key) {
      if (!SAFE_NAME.test(key)) return undefined;
      const metaPath = join(dir, `${key}.json`);
      const text = await readText(metaPath);
      const meta = metaOf(text);
      if (meta === undefined) return undefined;
      const { madeAt, lastModified, lastmod, urls } = meta;
      const file: { -readonly [K in keyof CachedFile]: CachedFile[K] } = { madeAt, lastModified, lastmod, urls };
      for (const form of FORMS) {
        const expected = meta[form];
        if (expected === undefined) continue;
        const body = await readFile(join(dir, `${key}.${form}`)).catch(() => undefined);
        // A body replaced or cut since its meta was written: not a cached file.
        if (body === undefined || body.byteLength !== expected.bytes) return undefined;
        file[form] = { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), etag: expected.etag } satisfies Representation;
      }
      // A set under way may have put a same-length body in place: only an unchanged meta vouches for it.
      return (await readText(metaPath)) === text ? file : undefined;
    },
    async set(key, file) {
      if (!SAFE_NAME.test(key)) return;
      const map = await index();
      const { madeAt, lastModified, lastmod, urls } = file;
      const meta: Meta = { madeAt, lastModified, lastmod, urls };
      // The meta goes first, then the bodies, then the new meta.
      await rm(join(dir, `${key}.json`), { force: true });
      for (const form of FORMS) {
        const representation = file[form];
        if (representation === undefined) continue;
        await writeFileAtomic(join(dir, `${key}.${form}`), representation.body, OWN_FILE);
        meta[form] = { etag: representation.etag, bytes: representation.body.byteLength };
      }
      await writeFileAtomic(join(dir, `${key}.json`), JSON.stringify(meta), OWN_FILE);
      map.set(key, { bytes: sizeOf(meta), madeAt: meta.madeAt });
      await evict(dir, map, maxBytes);
    },
  };
}

function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

function metaOf(text: string | undefined): Meta | undefined {
  try {
    const meta = JSON.parse(text ?? '') as Meta;
    return typeof meta.madeAt === 'number' && typeof meta.lastModified === 'number' ? meta : undefined;
  } catch {
    return undefined;
  }
}

function sizeOf(meta: Meta): number {
  return (meta.identity?.bytes ?? 0) + (meta.gzip?.bytes ?? 0);
}

/** Removes the oldest made files while the store holds more than `maxBytes`. */
async function evict(dir: string, map: Map<string, { bytes: number; madeAt: number }>, maxBytes: number): Promise<void> {
  let total = 0;
  for (const entry of map.values()) total += entry.bytes;
  const oldest = [...map.entries()].sort((a, b) => a[1].madeAt - b[1].madeAt);
  for (const [key, entry] of oldest) {
    if (total <= maxBytes) break;
    map.delete(key);
    total -= entry.bytes;
    await rm(join(dir, `${key}.json`), { force: true });
    for (const form of FORMS) await rm(join(dir, `${key}.${form}`), { force: true });
  }
}
