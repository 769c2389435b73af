// `apply`: a change feed applied to a published sharded set (issue 27). Only the children holding a
// changed URL are read back and written again; every other file keeps its bytes and inode. Changes are
// spilled by child (spill.ts): memory holds one child at a time, never the set nor the feed.

import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import type { UrlEntry } from '../../core/model.js';
import { dedupeKey } from '../../core/url.js';
import { jsonLineEntry } from '../../core/input/jsonl.js';
import { ALL_EXTENSIONS, type UrlEntrySerializer } from '../../core/write/url-entry.js';
import { serializedFrom, type SerializedEntry } from '../../core/build/stable-set.js';
import { childStemOf, indexFileNames, indexLink, LAYOUT_VERSION, manifestFileName } from '../../core/scale/layout.js';
import { readSitemap } from '../parse-sitemap.js';
import { ioErrorReason } from '../io-errors.js';
import { holdHeapGrowth } from '../heap-growth.js';
import { Spill } from './spill.js';
import { admit, manifestOf, placedEntry, policyAdmission, publishSet, readManifest, setSerializer, settingsOfManifest, shardOutput, stageChildren, type IndexFile, type ShardFile, type ShardManifest, type ShardSettings } from './shard-set.js';

/** One line of a change feed: `{"op":"upsert", …entry}` or `{"op":"delete","loc":…}`. */
export type Change = { op: 'upsert'; entry: UrlEntry } | { op: 'delete'; loc: string };

/** A change feed line's problem: an error (the line skipped) or a warning (applied without a refused part, as generate writes it). */
export interface FeedProblem {
  severity: 'error' | 'warning';
  message: string;
  file: string;
  line: number;
  code: string;
}

export interface ApplyOptions {
  /** JSON Lines files of changes, applied in order. */
  changes: readonly string[];
  /** The set's folder (it holds the index and the shards' manifests). */
  outDir: string;
  /** The set's name (default `sitemap`). */
  name?: string;
  /** Children per index file; default: as many as the set's first index file lists when it has several, else 50,000. */
  maxSitemapsPerIndex?: number;
  /** A line that is not a change, or a refused entry: reported, skipped; a warning: reported. Without it the first refusal throws. */
  onProblem?: (problem: FeedProblem) => void;
}

export interface ApplySummary {
  outDir: string;
  upserts: number;
  deletes: number;
  rejected: number;
  /** Changes applied without a part of their entry, as generate writes it. */
  warnings: number;
  /** Stems of the children read and written again. */
  touched: string[];
  /** Their files now (new names, or the same when their bytes did not change). */
  written: ShardFile[];
  /** Children of the set not touched (their files were not opened). */
  kept: number;
  /** Children of the set whose every URL was deleted: no file now. */
  emptied: number;
  indexFiles: IndexFile[];
  removed: string[];
  durationMs: number;
}

/** Characters of changes held before they are spilled: 4 MB rather than 16 cut the feed pass's peak by ~40 MB. */
const PLAN_PENDING = 4 * 1024 * 1024;

export async function applyChanges(options: ApplyOptions): Promise<ApplySummary> {
  const started = performance.now();
  // Live data is small (~18 MB at 20,000,000 URLs) but each touched child's entries fill the old space:
  // 220-440 MB of peak RSS with V8's default growth, ~155 MiB at 10% for ~15% more CPU.
  const restoreHeap = holdHeapGrowth(10);
  try {
    return await applyWithin(options, started);
  } finally {
    restoreHeap();
  }
}

async function applyWithin(options: ApplyOptions, started: number): Promise<ApplySummary> {
  const name = options.name ?? 'sitemap';
  const settings = await setSettings(options.outDir, name);
  const serializer = setSerializer(settings);
  const output = await shardOutput(settings, true);
  try {
    // Pass 1: each change checked and set aside under its child, so memory never holds the feed.
    const counts = { upserts: 0, deletes: 0, rejected: 0, warnings: 0 };
    const plan = new Spill((stem) => output.path(`changes-${stem}`), PLAN_PENDING);
    for await (const { stem, loc, item } of readChanges(options.changes, serializer, settings, options.onProblem, counts)) plan.add(stem, loc, item);
    // On disk before pass 2: the records still waiting would stay live until their child's turn.
    plan.flush();
    const { files: published, perIndex } = await readPublishedIndex(settings);
    const byStem = new Map<string, string[]>();
    for (const file of published) {
      if (file.child === '') throw new SitemapError('ERR_SITEMAP_STATE', `the index of ${settings.outDir} names ${file.name}, which is not a child of a sharded set`);
      const list = byStem.get(file.child);
      if (list === undefined) byStem.set(file.child, [file.name]);
      else list.push(file.name);
    }
    // Pass 2: each touched child read back, changed, written under the name of its content.
    const touched = plan.keys();
    const { files: written, placed } = await stageChildren(
      output,
      touched,
      (stem) => {
        const changes = new Map<string, SerializedEntry | null>();
        for (const record of plan.take(stem)) changes.set(dedupeKey(record.loc), record.item);
        return entriesOfChild(settings, byStem.get(stem) ?? [], changes, serializer);
      },
      settings,
    );
    const { files, manifests } = await appliedSet(settings, new Set(touched), written, published);
    const { indexFiles, removed } = await publishSet(output, settings, files, placed, { maxSitemapsPerIndex: options.maxSitemapsPerIndex ?? perIndex, manifests });
    const rewritten = new Set(written.map((file) => file.child));
    const existing = touched.filter((stem) => byStem.has(stem));
    return { outDir: settings.outDir, ...counts, touched, written, kept: byStem.size - existing.length, emptied: existing.filter((stem) => !rewritten.has(stem)).length, indexFiles, removed, durationMs: performance.now() - started };
  } finally {
    await output.abort();
  }
}

/** A change's child, its normalised loc and its entry (null for a delete). */
export interface PlacedChange {
  stem: string;
  loc: string;
  item: SerializedEntry | null;
}

/** Places a change in its child. Throws InvalidValueError for a refused entry or loc. */
export function placeChange(change: Change, serializer: UrlEntrySerializer, settings: ShardSettings): PlacedChange {
  // A delete's loc is checked as an upsert's, its scope included: one the set cannot hold is refused, not counted.
  const { item, child } = placedEntry(serializer, settings, change.op === 'upsert' ? change.entry : { loc: change.loc });
  return { stem: child, loc: item.loc, item: change.op === 'upsert' ? item : null };
}

/** The feeds' changes in order, as generate writes their entries (policyAdmission), placed and counted; a refused line is reported (without `onProblem`, thrown). */
export async function* readChanges(files: readonly string[], serializer: UrlEntrySerializer, settings: ShardSettings, onProblem: ApplyOptions['onProblem'], counts: { upserts: number; deletes: number; rejected: number; warnings: number }): AsyncGenerator<PlacedChange & { change: Change }> {
  let at = { file: '', line: 0 };
  const report = (severity: FeedProblem['severity'], message: string, code: string): void => {
    counts[severity === 'error' ? 'rejected' : 'warnings']++;
    onProblem?.({ severity, message, code, ...at });
  };
  const admission = policyAdmission((code, message) => report('warning', message, code), onProblem === undefined ? undefined : (error) => report('error', error.message, error.rule));
  for (const file of files) {
    const decoder = new TextDecoder();
    let rest = '';
    let line = 0;
    try {
      for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
        const lines = (rest + decoder.decode(chunk as Buffer, { stream: true })).split('\n');
        rest = lines.pop() as string;
        for (const text of lines) yield* placed(text, (at = { file, line: ++line }));
      }
      rest += decoder.decode();
      if (rest !== '') yield* placed(rest, (at = { file, line: ++line }));
    } catch (error) {
      if (error instanceof SitemapError) throw error;
      throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the change feed ${file}: ${ioErrorReason(error)}`);
    }
  }

  function* placed(text: string, { file, line }: { file: string; line: number }): Generator<PlacedChange & { change: Change }> {
    if (text.trim() === '') return;
    const change = parseChange(text.endsWith('\r') ? text.slice(0, -1) : text);
    if (!('op' in change)) {
      if (onProblem === undefined) throw new SitemapError('ERR_SITEMAP_INPUT', `${file}:${line}: ${change.problem}`);
      report('error', change.problem, change.code);
      return;
    }
    // The change as admitted (a queued apply's child job places it again).
    let admitted = change;
    const place = admit(change.op === 'upsert' ? change.entry : { loc: change.loc }, admission, (entry) => placeChange((admitted = change.op === 'upsert' ? { op: 'upsert', entry } : { op: 'delete', loc: entry.loc }), serializer, settings));
    if (place == null) return;
    counts[change.op === 'upsert' ? 'upserts' : 'deletes']++;
    yield { change: admitted, ...place };
  }
}

/** A change, or why the line is not one; an upsert's entry is checked as a JSON Lines input line is. */
export function parseChange(text: string): Change | { problem: string; code: 'input/change' | 'input/jsonl' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${(error as Error).message}`, code: 'input/jsonl' };
  }
  const op = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).op : undefined;
  if (op === 'delete') {
    const { loc, ...rest } = value as Record<string, unknown>;
    if (typeof loc !== 'string') return { problem: 'a delete needs "loc", a string', code: 'input/change' };
    if (Object.keys(rest).some((key) => key !== 'op')) return { problem: `a delete has only "op" and "loc", got ${Object.keys(rest).filter((key) => key !== 'op').map((key) => JSON.stringify(key)).join(', ')}`, code: 'input/change' };
    return { op, loc };
  }
  if (op !== 'upsert') return { problem: `a change is an object with "op": "upsert" or "delete", got ${op === undefined ? 'none' : JSON.stringify(op)}`, code: 'input/change' };
  try {
    return {
      op,
      entry: jsonLineEntry(value, (path) => {
        if (path !== 'op') throw new SitemapError('ERR_SITEMAP_INPUT', `unknown field "${path}"`);
      }),
    };
  } catch (error) {
    if (error instanceof SitemapError) return { problem: error.message, code: 'input/jsonl' };
    throw error;
  }
}

/** A child's entries after its `changes`, by dedupeKey (a change replaces a URL however either spells its escapes): changed URLs replaced or dropped, new ones added. */
export async function entriesOfChild(settings: ShardSettings, files: readonly string[], changes: Map<string, SerializedEntry | null>, serializer: UrlEntrySerializer): Promise<SerializedEntry[]> {
  const items: SerializedEntry[] = [];
  for (const file of files) {
    const path = join(settings.outDir, file);
    const summary = await readSitemap(path, {
      onUrl: (entry) => {
        const item = serializedFrom(serializer, serializer.serialize(entry, ALL_EXTENSIONS));
        if (!changes.has(dedupeKey(item.loc))) items.push(item);
      },
    });
    if (summary.errors > 0) throw new SitemapError('ERR_SITEMAP_STATE', `${path}, a child of the set, cannot be read back whole (${summary.diagnostics[0]?.message ?? 'errors'}); write the set again`);
  }
  for (const item of changes.values()) if (item !== null) items.push(item);
  return items;
}

/** The settings of the set `name` in `outDir`, from one of its manifests (every shard has the same). */
export async function setSettings(outDir: string, name: string): Promise<ShardSettings> {
  const names = await readdir(outDir).catch((error: unknown) => {
    throw new SitemapError('ERR_SITEMAP_STATE', `cannot read ${outDir}: ${ioErrorReason(error)}`);
  });
  const manifest = names.find((file) => file.startsWith(`${name}-shard-0-of-`) && /^\d+\.json$/.test(file.slice(`${name}-shard-0-of-`.length)));
  if (manifest === undefined) throw new SitemapError('ERR_SITEMAP_STATE', `${outDir} holds no sharded set named "${name}" (no ${name}-shard-0-of-N.json): write one with generate --shards or index`);
  const read = await readManifest(join(outDir, manifest));
  if (read.layout !== LAYOUT_VERSION) throw new SitemapError('ERR_SITEMAP_STATE', `${outDir} was written with the layout of an earlier sitemapkit (layout ${read.layout ?? 1}, now ${LAYOUT_VERSION}): changes would land in other children than its URLs; write the set again (generate --shards)`);
  return settingsOfManifest(read, outDir);
}

/** The children the published index file(s) name; with several, how many the first lists (kept by default). */
export async function readPublishedIndex(settings: ShardSettings): Promise<{ files: ShardFile[]; perIndex?: number }> {
  const { outDir, name } = settings;
  const single = await lstat(join(outDir, `${name}.xml`)).catch(() => undefined);
  const linked = await lstat(join(outDir, indexLink(name))).catch(() => undefined);
  if (single === undefined && linked === undefined) throw new SitemapError('ERR_SITEMAP_STATE', `${outDir} has no published index (${name}.xml): write the set with generate --shards or index`);
  // Both only when a run was stopped right after its commit: the one renamed in last is the set.
  const paths = linked !== undefined && (single === undefined || linked.ctimeMs > single.ctimeMs) ? (await readdir(join(outDir, indexLink(name)))).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((file) => join(outDir, indexLink(name), file)) : [join(outDir, indexFileNames(name, 1)[0] as string)];
  const files: ShardFile[] = [];
  let perIndex: number | undefined;
  for (const path of paths) {
    if (paths.length > 1 && files.length > 0) perIndex ??= files.length;
    const summary = await readSitemap(path, {
      onSitemap: (ref) => {
        if (!ref.loc.startsWith(settings.baseUrl) || ref.loc.indexOf('/', settings.baseUrl.length) !== -1) throw new SitemapError('ERR_SITEMAP_STATE', `${path} names ${ref.loc}, not a child of the set at ${settings.baseUrl}`);
        const child = ref.loc.slice(settings.baseUrl.length);
        files.push({ name: child, child: childStemOf(child) ?? '', urls: 0, bytes: 0, diskBytes: 0, crc32: '', ...(typeof ref.lastmod === 'string' ? { lastmod: ref.lastmod } : {}) });
      },
    });
    if (summary.errors > 0) throw new SitemapError('ERR_SITEMAP_STATE', `the index ${path} cannot be read whole: ${summary.diagnostics[0]?.message ?? 'errors'}`);
  }
  // An index never names a missing child (as index checks): one lost since the set was published is said, not published again.
  for (const file of files) {
    if ((await lstat(join(outDir, file.name)).catch(() => undefined)) === undefined) throw new SitemapError('ERR_SITEMAP_STATE', `${file.name}, a child the index names, is missing from ${outDir}: write the set again`);
  }
  return { files, ...(perIndex !== undefined ? { perIndex } : {}) };
}

/** The set's files once the touched children are `written`, and the manifests of the shards touched (written after the commit); `published`: the files the index names. */
export async function appliedSet(settings: ShardSettings, touched: ReadonlySet<string>, written: readonly ShardFile[], published: readonly ShardFile[]): Promise<{ files: ShardFile[]; manifests: ShardManifest[] }> {
  const bucket = (stem: string): number => Number(stem.slice(stem.lastIndexOf('.') + 1));
  const shards = new Set([...touched].map(bucket));
  const named = new Map([...shards].map((shard) => [shard, new Set<string>()]));
  for (const file of published) named.get(bucket(file.child))?.add(file.name);
  const manifests: ShardManifest[] = [];
  for (const shard of [...shards].sort((a, b) => a - b)) {
    // One that cannot be read is refused: written anew with the touched children alone, the next index dropped the others.
    const path = join(settings.outDir, manifestFileName(settings.name, shard, settings.shards));
    const old = await readManifest(path);
    // Manifests of another set (a run stopped between its index and its manifests) place changes by their layout: a URL was published twice.
    const names = named.get(shard) as Set<string>;
    if (old.files.length !== names.size || old.files.some((file) => !names.has(file.name))) throw new SitemapError('ERR_SITEMAP_STATE', `${path} does not list the children of shard ${shard} that the published index names (a run stopped between its index and its manifests?): write the set again`);
    const files = [...old.files.filter((file) => !touched.has(file.child)), ...written.filter((file) => bucket(file.child) === shard)];
    manifests.push(manifestOf(settings, shard, files, old.duplicates));
  }
  return { files: [...published.filter((file) => !touched.has(file.child)), ...written], manifests };
}
