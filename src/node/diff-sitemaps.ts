// diffSitemaps: the URLs added, removed and changed between two sources (issue 26): files, sets on
// disk or URLs. It compares URLs, not files. No URL string is kept: NEW, OLD, then NEW again are read
// as streams into a table of fingerprints (core/url-diff.ts, ~20 bytes a URL); only the old entries of
// changed candidates are spilled to a temporary file and compared exactly in the third pass.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { definedOnly } from '../core/defined-only.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapError } from '../core/errors.js';
import type { UrlEntry } from '../core/model.js';
import { notASitemap, type EntryPosition } from '../core/read/types.js';
import { comparableUrl, locFingerprint } from '../core/url.js';
import { FINGERPRINT } from '../core/fingerprint.js';
import { ADDED, REMOVED, REPEATED, UNCHANGED_URL, UNKNOWN, UrlDiffTable, changedFields, fingerprintFields, type FieldChange } from '../core/url-diff.js';
import { readSitemap, type ReadSitemapOptions, type SitemapInput } from './parse-sitemap.js';
import { readSource, sourceName, type SitemapSource, type SourceDocument, type SourceOptions } from './sitemap-source.js';

export interface DiffSitemapsOptions extends Omit<SourceOptions, 'onDiagnostic' | 'onUnreadable'> {
  /** Entries read per document at most (the reader's budget). */
  maxEntries?: number;
  /** Every problem of the sources, once (NEW's second reading reports none), with its source. */
  onDiagnostic?: (diagnostic: Diagnostic, side: 'old' | 'new') => void;
  /** Called before each chunk of input with the pass (1 NEW, 2 OLD, 3 NEW again) and its URLs so far; may throw to stop. */
  onProgress?: (pass: 1 | 2 | 3, urls: number) => void;
  /** Where the temporary file of the changed candidates' old entries goes (default: the system's). */
  tmpDir?: string;
  /** A child that cannot be read, or a document that is no sitemap (the source's own too), once, with its source; the comparison goes on without its URLs (it may throw). Without it, the diff throws. */
  onUnreadable?: (document: SourceDocument, error: SitemapError, side: 'old' | 'new') => void;
  /** Called before each document is read, with its source (none on NEW's second reading); may throw to stop. */
  onDocument?: (input: SitemapInput, document: SourceDocument, side: 'old' | 'new' | undefined) => void;
}

/** Removed URLs in OLD's order, then added and changed ones in NEW's; `file` is the document listing the URL. */
export interface DiffListener {
  removed(loc: string, file: string): void;
  added(loc: string, file: string): void;
  changed(loc: string, changes: readonly FieldChange[], file: string): void;
}

export interface DiffSummary {
  /** Distinct URLs of each source. */
  oldUrls: number;
  newUrls: number;
  added: number;
  removed: number;
  changed: number;
}

type OnUrl = (entry: UrlEntry, at: EntryPosition, locHash?: Int32Array) => void;

/** Compares two sources; `ERR_SITEMAP_INPUT` when one cannot be read, or NEW changes between its readings. */
export async function diffSitemaps(oldSource: SitemapSource, newSource: SitemapSource, listener: DiffListener, options: DiffSitemapsOptions = {}): Promise<DiffSummary> {
  const spill = new ChangedEntries(options.tmpDir ?? tmpdir());
  const newName = sourceName(newSource, options.cwd ?? process.cwd());
  const passes = new Passes(listener, spill, newName);
  let pass: 1 | 2 | 3 = 1;
  let urls = 0;
  const { onProgress, backpressure } = options;
  const reading: DiffSitemapsOptions = onProgress === undefined ? options : {
    ...options,
    backpressure: () => {
      onProgress(pass, urls);
      return backpressure?.();
    },
  };
  const counted = (onUrl: OnUrl): OnUrl => (entry, at, locHash) => {
    urls++;
    onUrl(entry, at, locHash);
  };
  try {
    await readUrls(newSource, reading, 'new', counted(passes.addNew), passes);
    [pass, urls] = [2, 0];
    await readUrls(oldSource, reading, 'old', counted(passes.matchOld), passes);
    spill.flush();
    [pass, urls] = [3, 0];
    await readUrls(newSource, reading, undefined, counted(passes.matchNew), passes);
    // Its added and changed URLs are listed from the second reading: one it lost would go unlisted.
    if (passes.table.newSeen < passes.table.newUrls) throw changedWhileCompared(newName, 'a URL first read was not there the second time');
  } finally {
    spill.close();
  }
  return { ...passes.summary, oldUrls: passes.table.oldUrls, newUrls: passes.table.newUrls };
}

/** What each pass does with a URL: its `onUrl`. */
class Passes {
  readonly table = new UrlDiffTable();
  readonly summary = { added: 0, removed: 0, changed: 0 };
  /** The document being read. */
  file = '';

  constructor(
    private readonly listener: DiffListener,
    private readonly spill: ChangedEntries,
    private readonly newName: string,
  ) {}

  /** 1: NEW into the table. */
  readonly addNew: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const hash1 = loc[0] as number;
    const hash2 = loc[1] as number;
    fingerprintFields(entry);
    this.table.addNew(hash1, hash2, FINGERPRINT[0] as number, FINGERPRINT[1] as number);
  };

  /** 2: OLD against it: removed URLs out, the old entries of changed candidates kept. */
  readonly matchOld: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const hash1 = loc[0] as number;
    const hash2 = loc[1] as number;
    fingerprintFields(entry);
    const match = this.table.matchOld(hash1, hash2, FINGERPRINT[0] as number, FINGERPRINT[1] as number);
    if (match === REMOVED) {
      this.summary.removed++;
      this.listener.removed(entry.loc, this.file);
    } else if (match >= 0) this.spill.add(entry);
  };

  /** 3: NEW again: added URLs out, changed candidates compared exactly. */
  readonly matchNew: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const match = this.table.matchNew(loc[0] as number, loc[1] as number);
    if (match === UNCHANGED_URL || match === REPEATED) return;
    if (match === UNKNOWN) throw changedWhileCompared(this.newName, `${entry.loc} was not there when first read`);
    if (match === ADDED) {
      this.summary.added++;
      this.listener.added(entry.loc, this.file);
      return;
    }
    const before = this.spill.get(match);
    if (comparableUrl(before.loc) !== comparableUrl(entry.loc)) {
      // Two URLs with one fingerprint (about 1 in 10^5 runs over 2 × 10^7 URLs): told apart here.
      this.summary.removed++;
      this.listener.removed(before.loc, this.file);
      this.summary.added++;
      this.listener.added(entry.loc, this.file);
      return;
    }
    const changes = changedFields(before, entry);
    if (changes.length === 0) return;
    this.summary.changed++;
    this.listener.changed(entry.loc, changes, this.file);
  };
}

/** Reads every URL of `source`, in order; its first reading (`side`) reports its diagnostics and unreadable children, NEW's second none. */
async function readUrls(source: SitemapSource, options: DiffSitemapsOptions, side: 'old' | 'new' | undefined, onUrl: OnUrl, passes: Passes): Promise<void> {
  const { onDiagnostic, onUnreadable, ...rest } = options;
  const walking: SourceOptions = side === undefined || onDiagnostic === undefined ? rest : { ...rest, onDiagnostic: (d) => onDiagnostic(d, side) };
  if (onUnreadable !== undefined) walking.onUnreadable = side === undefined ? () => {} : (document, error) => onUnreadable(document, error, side);
  await readSource(source, walking, (input, document, hooks) => {
    options.onDocument?.(input, document, side);
    passes.file = document.name;
    const reading: ReadSitemapOptions = {
      file: document.name, onUrl, onSitemap: hooks.onSitemap, locHashes: true, maxDiagnosticsPerCode: 0,
      ...definedOnly({ cwd: options.cwd, maxBytes: options.maxBytes, maxEntries: options.maxEntries, backpressure: hooks.backpressure, onDiagnostic: walking.onDiagnostic }),
    };
    return readSitemap(input, reading).then(({ format }) => {
      if (!notASitemap(format)) return format;
      const error = new SitemapError('ERR_SITEMAP_INPUT', `${document.name} is not a sitemap (${format === 'unknown' ? 'its format could not be told' : format})`);
      if (walking.onUnreadable === undefined) throw error;
      walking.onUnreadable(document, error);
      return format;
    });
  });
}

const SPILL_CHUNK = 1 << 20;

/** The old entries of changed candidates: JSON appended to a temporary file made when needed, read back by number. */
class ChangedEntries {
  private dir: string | undefined;
  private fd = -1;
  /** offsets[k] is where entry k starts; offsets[k + 1] where it ends. */
  private readonly offsets = [0];
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly parent: string) {}

  add(entry: UrlEntry): void {
    if (this.fd === -1) {
      this.dir = mkdtempSync(join(this.parent, 'sitemapkit-diff-'));
      this.fd = openSync(join(this.dir, 'changed.jsonl'), 'w+');
    }
    const bytes = Buffer.from(JSON.stringify(entry));
    this.offsets.push((this.offsets.at(-1) as number) + bytes.length);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= SPILL_CHUNK) this.flush();
  }

  flush(): void {
    if (this.pendingBytes === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written);
  }

  get(k: number): UrlEntry {
    const start = this.offsets[k] as number;
    const bytes = Buffer.allocUnsafe((this.offsets[k + 1] as number) - start);
    for (let read = 0; read < bytes.length; ) {
      const n = readSync(this.fd, bytes, read, bytes.length - read, start + read);
      if (n === 0) throw new SitemapError('ERR_SITEMAP_INPUT', 'the temporary file of changed entries was cut short');
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as UrlEntry;
  }

  close(): void {
    if (this.fd !== -1) closeSync(this.fd);
    this.fd = -1;
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** NEW read twice gave other URLs: the differences would describe neither reading. */
function changedWhileCompared(newName: string, what: string): SitemapError {
  return new SitemapError('ERR_SITEMAP_INPUT', `${newName} changed while it was compared (${what}); run the diff again`);
}
