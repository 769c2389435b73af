// validateSitemap(input, options): one sitemap (a file, bytes, a stream, text) read through the same
// pipeline as readSitemap (gzip, encodings, budgets), validated by core/validate/validator.ts.

import type { SitemapRef } from '../core/model.js';
import type { EntryPosition } from '../core/read/types.js';
import type { FileReport } from '../core/validate/types.js';
import { SitemapValidation, type ValidationOptions } from '../core/validate/validator.js';
import { readSitemap, type ParseSitemapOptions, type ReadSitemapOptions, type SitemapInput } from './parse-sitemap.js';

/** Gunzipped chunks of a validation: 2-3 ms faster than 256 KiB; not for readings (their peak RSS grew 8 MB). */
const GUNZIP_CHUNK_BYTES = 512 * 1024;

export interface ValidateSitemapOptions extends ValidationOptions, Omit<ParseSitemapOptions, 'xmlHandler'>, Pick<ReadSitemapOptions, 'onFormat' | 'stop'> {
  /** Also receives each child of an index as it is read (e.g. to validate the children next). */
  onSitemap?: (ref: SitemapRef, at: EntryPosition) => void;
  /** Receives the number of entries read so far, after each piece of input (a progress line's count). */
  onProgress?: (entries: number) => void;
}

export interface SitemapValidationResult extends FileReport {
  /** Whether the document passes sitemap.xsd / siteindex.xsd with the extension schemas (xmllint's verdict). */
  readonly schemaValid: boolean;
  /** Bytes after decompression. */
  readonly bytes: number;
  /** Bytes read from the input (compressed, when it was). */
  readonly bytesRead: number;
}

/**
 * Validate one sitemap: diagnostics with stable codes (docs/rules.md), positions and hints, and the schema
 * verdict; at most `maxDiagnosticsPerCode` (default 1,000) of each code, exact `counts`. Throws only for
 * unreadable input.
 */
export async function validateSitemap(input: SitemapInput, options: ValidateSitemapOptions = {}): Promise<SitemapValidationResult> {
  const file = options.file ?? (typeof input === 'string' ? input : '<input>');
  const validation = new SitemapValidation(file, options);
  const onProgress = options.onProgress;
  const summary = await readSitemap(input, {
    ...options,
    file,
    // The validation keeps (and caps) the report; the reading keeps nothing of its own.
    maxDiagnosticsPerCode: 0,
    gunzipChunkBytes: options.gunzipChunkBytes ?? GUNZIP_CHUNK_BYTES,
    xmlHandler: (reader) => validation.xmlHandler(reader),
    onFormat: (f) => {
      validation.format(f);
      options.onFormat?.(f);
    },
    onUrl: (e, at) => validation.url(e, at),
    onSitemap: (r, at) => {
      validation.sitemap(r, at);
      options.onSitemap?.(r, at);
    },
    onDiagnostic: (d) => validation.diagnostic(d),
    // The reader's backpressure hook runs after each piece of input: progress, then the caller's wait.
    ...(onProgress !== undefined ? {
      backpressure: () => {
        onProgress(validation.entriesRead);
        return options.backpressure?.();
      },
    } : {}),
  });
  const report = validation.finish(summary.bytesDecompressed);
  return { ...report, schemaValid: validation.schemaValid, bytes: summary.bytesDecompressed, bytesRead: summary.bytesRead };
}
