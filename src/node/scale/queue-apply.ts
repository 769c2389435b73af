// `queue apply`: apply.ts by workers. The coordinator routes each checked change to a file per touched
// child; a `child` job per touched child rewrites it in place under the name of its content (nothing
// published); the parent publishes the index at one instant and updates the touched manifests.

import type { SerializedEntry } from '../../core/build/stable-set.js';
import { join } from 'node:path';
import { indexFileNames, manifestFileName } from '../../core/scale/layout.js';
import { dedupeKey } from '../../core/url.js';
import { StagedOutput, syncFiles } from '../staged-output.js';
import { entriesOfChild, parseChange, placeChange, readChanges, readPublishedIndex, setSettings, appliedSet, type Change, type FeedProblem } from './apply.js';
import { publishInPlace, readManifest, type PublishOptions, setSerializer, settingsOfManifest, stageChildren, type ShardFile, type ShardSettings } from './shard-set.js';
import { changeFile, MAX_PROBLEMS_KEPT, type ChildJob, type JobOutcome, type SetJob } from './queue-jobs.js';
import { GroupFiles } from './queue-split.js';
import type { SetStorage } from './storage.js';

export interface PlannedApply {
  /** The set's settings, read from its manifests. */
  settings: ShardSettings;
  /** The stems of the touched children (their changes: `fileOf(stem)`). */
  touched: string[];
  outcome: JobOutcome & { upserts: number; deletes: number; warnings: number };
}

/** The change line of `change`, as parseChange reads it back. */
function changeLine(change: Change): string {
  return JSON.stringify(change.op === 'upsert' ? { op: 'upsert', ...change.entry } : change);
}

/** Checks and routes the changes of `feeds` to one file per touched child (`fileOf(stem)`). */
export async function planQueuedApply(storage: SetStorage, name: string, feeds: readonly string[], fileOf: (stem: string) => string, onProblem?: (problem: string) => void): Promise<PlannedApply> {
  const settings = await setSettings(storage.localDir, name);
  const counts = { upserts: 0, deletes: 0, rejected: 0, warnings: 0 };
  const problems: string[] = [];
  const onFeedProblem = ({ severity, message, file, line, code }: FeedProblem): void => {
    const problem = `${file}:${line}: ${severity === 'warning' ? 'warning ' : ''}${code} ${message}`;
    if (problems.length < MAX_PROBLEMS_KEPT) problems.push(problem);
    onProblem?.(problem);
  };
  const files = new GroupFiles(storage, fileOf);
  for await (const { change, stem } of readChanges(feeds, setSerializer(settings), settings, onFeedProblem, counts)) await files.write(stem, changeLine(change) + '\n');
  const touched = (await files.close()).sort();
  // A set with no index cannot be applied to: said before a run is added.
  await readPublishedIndex(settings);
  return { settings, touched, outcome: { entries: counts.upserts + counts.deletes, problems, ...counts } };
}

/** The parent's maker of its child jobs: child `n` of `data.touched`, with its files in the published index. */
export async function childJobs(data: SetJob, storage: SetStorage): Promise<(n: number) => ChildJob> {
  const settings = await setSettings(storage.localDir, data.set.name ?? 'sitemap');
  const touched = data.touched ?? [];
  const files = new Map(touched.map((stem) => [stem, [] as string[]]));
  for (const file of (await readPublishedIndex(settings)).files) files.get(file.child)?.push(file.name);
  return (n) => {
    const stem = touched[n] as string;
    return { kind: 'child', run: data.run, out: data.out, shards: data.shards, set: data.set, layout: data.layout, child: stem, changes: changeFile(data.run, stem), files: files.get(stem) ?? [] };
  };
}

/** A `child` job: the child read back with its changes, put in place under new names (unless `beforePublish` throws); returns its files. */
export async function rewriteChild(data: ChildJob, storage: SetStorage, beforePublish?: () => Promise<void>): Promise<JobOutcome & { written: ShardFile[] }> {
  const name = data.set.name ?? 'sitemap';
  // The manifest by its name, not by listing the set's folder (thousands of files) in each job.
  const settings = settingsOfManifest(await readManifest(join(storage.localDir, manifestFileName(name, 0, data.shards))), storage.localDir);
  const serializer = setSerializer(settings);
  const changes = new Map<string, SerializedEntry | null>();
  let read = 0;
  for (const line of ((await storage.read(data.changes))?.toString('utf8') ?? '').split('\n')) {
    if (line === '') continue;
    read++;
    const change = parseChange(line);
    // The coordinator wrote these lines from changes it had checked.
    if (!('op' in change)) throw new Error(`${data.changes}: ${change.problem}`);
    const placed = placeChange(change, serializer, settings);
    changes.set(dedupeKey(placed.loc), placed.item);
  }
  const output = await StagedOutput.create(settings.outDir, { name, gzipLevel: settings.gzipLevel, workers: 1 });
  try {
    const staged = await stageChildren(output, [data.child], () => entriesOfChild(settings, data.files, changes, serializer), settings);
    // Beside the published set; flushed to disk by the parent, once for every child, before its index.
    await beforePublish?.();
    await output.commit({ children: staged.placed, durable: false });
    return { entries: changes.size, rejected: 0, problems: [], written: staged.files, read };
  } finally {
    await output.abort();
  }
}

/** The parent of an apply: the index with the touched children's new files, at one instant; then the manifests. `beforeWrite` runs before each write (publishSet). */
export async function publishApplied(data: SetJob, storage: SetStorage, written: readonly ShardFile[], options: Pick<PublishOptions, 'beforeWrite' | 'stageIn'> = {}): Promise<{ indexFiles: string[]; files: number; urls: number; removed: number }> {
  const settings = await setSettings(storage.localDir, data.set.name ?? 'sitemap');
  const touched = new Set(data.touched);
  const { files: published, perIndex } = await readPublishedIndex(settings);
  const { files, manifests } = await appliedSet(settings, touched, written, published);
  // No change applied (every line refused): the published set stays as it is.
  if (touched.size === 0) return { indexFiles: indexFileNames(settings.name, perIndex === undefined ? 1 : Math.ceil(files.length / perIndex)), files: files.length, urls: 0, removed: 0 };
  await syncFiles(written.map((file) => join(settings.outDir, file.name)));
  const { indexFiles, removed } = await publishInPlace(settings, files, { ...options, ...(perIndex !== undefined ? { maxSitemapsPerIndex: perIndex } : {}), manifests });
  return { indexFiles: indexFiles.map((f) => f.name), files: files.length, urls: written.reduce((n, f) => n + f.urls, 0), removed: removed.length };
}

