// Reads and scans the pages of a built site: bytes → text (in the page's own encoding) → the facts
// the build needs and a hash of the content without build noise. Files are read a few at a time in
// parallel while the main thread scans the ones already read.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { scanHtmlPage, sniffHtmlEncoding, type PageFacts } from '../../core/build/html-page.js';
import { ioErrorReason } from '../io-errors.js';

export interface ScanTarget {
  path: string;
  url: string;
}

export type PageScan = { facts: PageFacts; hash: string } | { error: string };

export interface ScanOptions {
  images: boolean;
  /** Files read ahead of the scanner (default 16). */
  concurrency?: number;
  onScanned?: (done: number) => void;
}

/** Scans `targets` in order; a page that cannot be read gets `{ error }` instead of failing the run. */
export async function scanPages(targets: readonly ScanTarget[], options: ScanOptions): Promise<PageScan[]> {
  const results: PageScan[] = new Array<PageScan>(targets.length);
  const ahead = Math.max(1, options.concurrency ?? 16);
  const reads: Promise<Uint8Array | Error>[] = [];
  const start = (i: number): void => {
    const target = targets[i];
    if (target !== undefined) reads[i] = readFile(target.path).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  };
  for (let i = 0; i < ahead; i++) start(i);
  for (let i = 0; i < targets.length; i++) {
    const bytes = await (reads[i] as Promise<Uint8Array | Error>);
    reads[i] = Promise.resolve(new Error('released')); // let the bytes be collected
    start(i + ahead);
    const target = targets[i] as ScanTarget;
    results[i] = bytes instanceof Error ? { error: `cannot read ${target.path}: ${ioErrorReason(bytes)}` } : scanBytes(bytes, target.url, options.images);
    options.onScanned?.(i + 1);
  }
  return results;
}

/** Decodes and scans one page's bytes. */
export function scanBytes(bytes: Uint8Array, url: string, images: boolean): PageScan {
  let html: string;
  try {
    html = new TextDecoder(sniffHtmlEncoding(bytes)).decode(bytes);
  } catch {
    html = new TextDecoder('utf-8').decode(bytes);
  }
  const facts = scanHtmlPage(html, url, { images });
  return { facts, hash: contentHash(facts.content) };
}

/** 128 bits of SHA-256 over the normalised content: collisions are out of reach at any site size. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}
