// Reads and scans a built site's pages: bytes → text (in the page's encoding) → the facts the build needs
// and a hash of the content without build noise. CPU work, so a large site is scanned on worker threads.

import { readFileSync } from 'node:fs';
import { constants } from 'node:buffer';
import { availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';
import { scanHtmlPage, sniffHtmlEncoding, type PageFacts } from '../../core/build/html-page.js';
import { decodeText } from '../../core/read/decode.js';
import { abortedError, ioErrorReason } from '../io-errors.js';
import { startWorker } from '../worker-thread.js';

export interface ScanTarget {
  path: string;
  url: string;
  /** Bytes, as the folder walk found them. */
  size: number;
}

/** A page's facts and content hash; the normalised content itself is dropped once hashed. */
export type PageScan = { facts: Omit<PageFacts, 'content'>; hash: string } | { error: string };

export interface ScanOptions {
  images: boolean;
  /** Worker threads (default: one per core, at most 8; 0 scans on this thread). Small sites use none. */
  threads?: number;
  onScanned?: (done: number) => void;
  /** Stops the scan between batches (the workers' way only: a small site's scan is short). */
  signal?: AbortSignal;
}

/** Below this many pages, starting workers costs more than it saves. */
const PAGES_PER_THREAD_MIN = 2_000;
/** Pages per message: large enough that messaging is noise, small enough to balance the threads. */
const BATCH = 250;

/** Scans `targets`; a page that cannot be read gets `{ error }` instead of failing the run. */
export async function scanPages(targets: readonly ScanTarget[], options: ScanOptions): Promise<PageScan[]> {
  const threads = options.threads ?? (targets.length < PAGES_PER_THREAD_MIN ? 0 : Math.min(8, availableParallelism()));
  const results = new Array<PageScan>(targets.length);
  let next = 0;
  let done = 0;
  const nextBatch = (): ScanBatch | undefined => {
    if (next >= targets.length) return undefined;
    const id = next;
    next = Math.min(targets.length, next + BATCH);
    return { id, targets: targets.slice(id, next), images: options.images };
  };
  const store = ({ id, scans }: ScannedBatch): void => {
    scans.forEach((scan, i) => (results[id + i] = scan));
    done += scans.length;
    options.onScanned?.(done);
  };
  if (threads === 0) {
    for (let batch = nextBatch(); batch !== undefined; batch = nextBatch()) store(scanBatch(batch));
    return results;
  }
  const workers = Array.from({ length: threads }, () => startWorker(new URL('./scan-worker.js', import.meta.url), import.meta.url));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            // One batch at a time per thread; the signal is checked between batches.
            const send = (): void => {
              const batch = options.signal?.aborted === true ? undefined : nextBatch();
              if (batch !== undefined) worker.postMessage(batch);
              else if (options.signal?.aborted === true) reject(abortedError(options.signal));
              else resolve();
            };
            worker.on('message', (message: ScannedBatch) => {
              store(message);
              send();
            });
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (next < targets.length || done < targets.length) reject(new Error(`a page-scanning thread stopped (exit ${code})`));
            });
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

export type ScanBatch = { id: number; targets: readonly ScanTarget[]; images: boolean };
type ScannedBatch = { id: number; scans: PageScan[] };

/** Scans one batch, on a worker thread or (a small site) this one. */
export function scanBatch({ id, targets, images }: ScanBatch): ScannedBatch {
  return { id, scans: targets.map((target) => scanFile(target, images)) };
}

/** Reads, decodes and scans one page. */
function scanFile(target: ScanTarget, images: boolean): PageScan {
  // Each byte decodes to at most one character: past V8's longest string a page cannot be decoded,
  // and reading it would stop the whole run without naming it.
  if (target.size > constants.MAX_STRING_LENGTH) return { error: `cannot read ${target.path}: ${target.size} bytes, more than a page can have (${constants.MAX_STRING_LENGTH})` };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(target.path);
  } catch (error) {
    return { error: `cannot read ${target.path}: ${ioErrorReason(error)}` };
  }
  const encoding = sniffHtmlEncoding(bytes);
  let html = decodeText(bytes, encoding);
  // Bytes that are not what the first 1,024 declare: a declaration further on is the one a browser's
  // parser meets and changes the encoding to (HTML standard §13.2.6.4.4, "change the encoding"); with
  // none, windows-1252, the default of most locales (§13.2.3.2): UTF-8 reads every bad byte as one U+FFFD.
  if (html.includes('\uFFFD')) {
    const declared = sniffHtmlEncoding(bytes, bytes.length, 'windows-1252');
    if (declared !== encoding) html = decodeText(bytes, declared);
  }
  const { content, ...facts } = scanHtmlPage(html, target.url, { images });
  // 128 bits of SHA-256: collisions are out of reach at any site size.
  return { facts, hash: createHash('sha256').update(content).digest('base64url').slice(0, 22) };
}
