// Entries → a set of urlset documents, as byte chunks, a new file started *before* an entry would
// push the current one over a limit (sitemaps.org: 50,000 URLs, 52,428,800 bytes uncompressed).
//
// Namespaces are declared only when used: the root start tag waits for the first flush and declares
// those used so far; a later entry using another declares it on its own element.

import { NS, type Limits, type UrlEntry } from '../model.js';
import { InvalidValueError, SitemapError, plural } from '../errors.js';
import { escapeXml, indexOfNonXmlChar } from '../xml/escape.js';
import { dedupeKey, type UrlScope } from '../url.js';
import { ALL_EXTENSIONS, UrlEntrySerializer, namespaceDeclarations } from './url-entry.js';
import { FingerprintSet } from './fingerprint-set.js';
import { utf8Length } from './utf8.js';

/** What one finished urlset file holds. */
export interface SitemapFileInfo {
  /** 0-based position in the set. */
  index: number;
  urls: number;
  /** Uncompressed size in bytes. */
  bytes: number;
  /** Entries carrying `<news:news>`. */
  news: number;
  /** The newest `<lastmod>` among the file's entries, as written; absent when none has one. */
  lastmod?: string;
  /** That lastmod as epoch milliseconds. */
  lastmodMs?: number;
}

/** Receives the set file by file. `write` gets a view of the writer's buffer, valid during the call only. */
export interface SitemapSetSink {
  open(index: number): void;
  write(bytes: Uint8Array): void;
  close(info: SitemapFileInfo): void;
}

export interface SitemapSetWriterOptions {
  limits: Readonly<Limits>;
  baseUrl?: string;
  scope?: UrlScope;
  /** `<?xml-stylesheet type="text/xsl" href="...">` on every document. */
  xslUrl?: string;
  /** Drop entries whose normalised loc was already written. Costs ~16 bytes of memory per distinct URL. */
  dedupe?: boolean;
  /** Most files the set may have (the index limit); more is a fatal `limits/too-many-sitemaps` error. */
  maxFiles?: number;
  /** Approximate size of the chunks handed to the sink, in characters. */
  chunkSize?: number;
}

export type AddResult = 'written' | 'duplicate';

/** The end of every urlset document. */
export const FOOTER = '</urlset>\n';
const encoder = new TextEncoder();

export function xmlDeclaration(xslUrl: string | undefined): string {
  let head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (xslUrl !== undefined) {
    // Either would make every file of the set not well-formed (XML 1.0 §2.6: a PI ends at "?>"; §2.2 Char).
    if (xslUrl.includes('?>') || indexOfNonXmlChar(xslUrl) >= 0) throw new SitemapError('ERR_SITEMAP_OPTION', `--xsl URL ${JSON.stringify(xslUrl)} must not contain "?>" nor a character XML cannot carry`);
    head += `<?xml-stylesheet type="text/xsl" href="${escapeXml(xslUrl)}"?>\n`;
  }
  return head;
}

/** The root start tag of a urlset document whose root declares the extension `namespaces` (url-entry.ts bits). */
export function rootStart(namespaces: number): string {
  return `<urlset xmlns="${NS.sitemap}"${namespaceDeclarations(namespaces)}>\n`;
}

export class SitemapSetWriter {
  readonly files: SitemapFileInfo[] = [];
  /** Entries refused as duplicates so far. */
  duplicates = 0;
  /** Entries written so far. */
  urls = 0;
  /** Uncompressed bytes of finished files so far. */
  bytes = 0;

  private readonly sink: SitemapSetSink;
  private readonly limits: Readonly<Limits>;
  private readonly serializer: UrlEntrySerializer;
  private readonly declaration: string;
  /** UTF-8 size of the document's start (declaration and root start tag) for each set of declared namespaces. */
  private readonly headerBytes: readonly number[];
  private readonly reservedHeaderBytes: number;
  private readonly seen: FingerprintSet | undefined;
  private readonly maxFiles: number;
  private readonly chunkSize: number;
  private ended = false;

  /** The file being written, as far as it is (`bytes`: its entries' alone); undefined between files. */
  private file: SitemapFileInfo | undefined;
  /** The namespaces its root declares, once its start tag is written (at its first flush). */
  private declared: number | undefined;
  /** The namespaces its entries used. */
  private usedNamespaces = 0;

  // Entries are encoded straight into this buffer (encodeInto gives the exact UTF-8 size). A file's
  // body starts after `reservedHeaderBytes`, where its start tag goes, right-aligned, at the first flush.
  private buffer: Uint8Array;
  private start: number;
  private position: number;

  constructor(sink: SitemapSetSink, options: SitemapSetWriterOptions) {
    this.sink = sink;
    this.limits = options.limits;
    this.serializer = new UrlEntrySerializer({ limits: options.limits, baseUrl: options.baseUrl, scope: options.scope });
    this.declaration = xmlDeclaration(options.xslUrl);
    this.headerBytes = Array.from({ length: ALL_EXTENSIONS + 1 }, (_, mask) => utf8Length(this.declaration + rootStart(mask)));
    // Room for the largest start tag, put in front of a file's body once its namespaces are known.
    this.reservedHeaderBytes = this.headerBytes[ALL_EXTENSIONS] as number;
    this.start = this.position = this.reservedHeaderBytes;
    this.seen = options.dedupe === true ? new FingerprintSet() : undefined;
    this.maxFiles = options.maxFiles ?? Number.POSITIVE_INFINITY;
    this.chunkSize = Math.max(16, options.chunkSize ?? 192 * 1024);
    this.buffer = new Uint8Array(this.reservedHeaderBytes + this.chunkSize + 4096);
    // The smallest start tag: a file declares only the namespaces its entries use (add checks each entry).
    if (this.overhead(0) >= this.limits.maxBytesPerSitemap) {
      throw new SitemapError('ERR_SITEMAP_OPTION', `a byte limit of ${this.limits.maxBytesPerSitemap} leaves no room for a single URL`);
    }
  }

  /** The files begun: those closed and the one being written. */
  get fileCount(): number {
    return this.files.length + (this.file === undefined ? 0 : 1);
  }

  /**
   * Adds one entry. Throws InvalidValueError (nothing written) when the entry is refused, and
   * `ERR_SITEMAP_LIMIT` `limits/too-many-sitemaps` when the set would need more files than allowed.
   */
  add(entry: UrlEntry): AddResult {
    if (this.ended) throw new SitemapError('ERR_SITEMAP_API', 'SitemapSetWriter.add() called after end()');
    const s = this.serializer;
    const mask = this.declared ?? ALL_EXTENSIONS;
    const xml = s.serialize(entry, mask);
    // The form this entry takes at the start of a new file, where the root declares its namespaces.
    let fresh: string | undefined;
    if ((s.usedNamespaces & ~mask) !== 0) fresh = s.serialize(entry, ALL_EXTENSIONS);
    let size = this.encode(xml);
    const sizeInNewFile = fresh === undefined ? size : utf8Length(fresh);
    // The byte limit is checked on the file as it will be: its start tag declares the namespaces its
    // entries used until the first flush (this one too), and those used after declare their own.
    if (this.overhead(s.usedNamespaces) + sizeInNewFile > this.limits.maxBytesPerSitemap) {
      this.position -= size;
      throw new InvalidValueError('entry/too-large', 'url', s.loc, `this <url> takes ${sizeInNewFile} bytes; with the document's start and end it cannot fit in a file of at most ${this.limits.maxBytesPerSitemap} bytes`);
    }
    // Compared as validate's loc/duplicate compares them: `%c3%bc` is `%C3%BC`, `%7E` is `~` (RFC 3986 §6.2.2).
    if (this.seen !== undefined && !this.seen.add(dedupeKey(s.loc))) {
      this.position -= size;
      this.duplicates++;
      return 'duplicate';
    }
    let file = this.file;
    if (file === undefined) {
      file = this.startFile();
    } else if (
      file.urls + 1 > this.limits.maxUrlsPerSitemap ||
      this.overhead(this.declared ?? this.usedNamespaces | s.usedNamespaces) + file.bytes + size > this.limits.maxBytesPerSitemap ||
      (s.hasNews && file.news + 1 > this.limits.maxNewsPerSitemap)
    ) {
      // The entry starts the next file: take its bytes back, finish this file, write it again there.
      this.position -= size;
      this.closeFile(file);
      file = this.startFile();
      size = this.encode(fresh ?? xml);
    }
    file.bytes += size;
    file.urls++;
    this.urls++;
    this.usedNamespaces |= s.usedNamespaces;
    if (s.hasNews) file.news++;
    if (s.lastmodText !== undefined && (file.lastmodMs === undefined || s.lastmodMs > file.lastmodMs)) {
      file.lastmodMs = s.lastmodMs;
      file.lastmod = s.lastmodText;
    }
    if (this.position - this.start >= this.chunkSize) this.flush();
    return 'written';
  }

  /** Finishes the last file. Returns the files of the set (empty when no entry was written). */
  end(): SitemapFileInfo[] {
    if (this.file !== undefined) this.closeFile(this.file);
    this.ended = true;
    return this.files;
  }

  /** Bytes of a file besides its entries, when its root declares `namespaces`. */
  private overhead(namespaces: number): number {
    return (this.headerBytes[namespaces] as number) + FOOTER.length;
  }

  /** Appends the UTF-8 bytes of `text` to the buffer; returns how many. */
  private encode(text: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (this.buffer.length - this.position < text.length * 3) {
      if (this.position > this.start && this.declared !== undefined) this.flush();
      if (this.buffer.length - this.position < text.length * 3) {
        const bigger = new Uint8Array(this.position + text.length * 3 + this.chunkSize);
        bigger.set(this.buffer.subarray(0, this.position));
        this.buffer = bigger;
      }
    }
    const { written } = encoder.encodeInto(text, this.buffer.subarray(this.position));
    this.position += written;
    return written;
  }

  private startFile(): SitemapFileInfo {
    if (this.files.length >= this.maxFiles) {
      throw new SitemapError('ERR_SITEMAP_LIMIT', `the URLs need more than ${plural(this.maxFiles, 'sitemap file')}, more than one sitemap index may list; raise --max-urls/--max-bytes or split the input`, 'limits/too-many-sitemaps');
    }
    this.file = { index: this.files.length, urls: 0, bytes: 0, news: 0 };
    this.sink.open(this.files.length);
    return this.file;
  }

  /** Hands the buffered bytes to the sink (a view, valid during the call), then reuses the buffer. */
  private flush(): void {
    if (this.declared === undefined) {
      // The root start tag declares the namespaces the file used so far.
      this.declared = this.usedNamespaces;
      this.start = this.reservedHeaderBytes - (this.headerBytes[this.declared] as number);
      encoder.encodeInto(this.declaration + rootStart(this.declared), this.buffer.subarray(this.start, this.reservedHeaderBytes));
    }
    if (this.position > this.start) this.sink.write(this.buffer.subarray(this.start, this.position));
    this.start = 0;
    this.position = 0;
  }

  /** Finishes `file`; the next one's body starts after the reserved room for its start tag. */
  private closeFile(file: SitemapFileInfo): void {
    this.encode(FOOTER);
    this.flush();
    file.bytes += this.overhead(this.declared as number);
    this.files.push(file);
    this.bytes += file.bytes;
    this.file = this.declared = undefined;
    this.usedNamespaces = 0;
    this.start = this.position = this.reservedHeaderBytes;
    this.sink.close(file);
  }
}
