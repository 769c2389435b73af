// The 50,000-URL inputs shared by bench/read.js and bench/validate.js: the uniform ones, written by the
// project's own writer (dist/, passed in as `lib`) from the deterministic entries of entries.js, plain
// and gzipped, with and without image and hreflang extensions; and the realistic ones (realistic.js:
// query strings with &amp;, both date forms, indentation, comments, some images and alternates), the
// shapes real sitemaps have, on which issue 24's targets are judged.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BASE_URL, generateEntries, generateEntriesWithExtensions } from './entries.js';
import { check } from './harness.js';
import { realisticSitemap } from './realistic.js';

/** URLs in every input: one full sitemap file under the protocol's limit. */
export const URLS = 50_000;
export const GZIP_LEVEL = 6;

export const INPUTS = {
  plain: { file: 'plain.xml', extensions: false, gzip: false, text: `${URLS.toLocaleString('en-US')} URLs, plain XML` },
  gz: { file: 'plain.xml.gz', extensions: false, gzip: true, text: `the same, gzipped (level ${GZIP_LEVEL})` },
  ext: { file: 'ext.xml', extensions: true, gzip: false, text: `${URLS.toLocaleString('en-US')} URLs with image:image and xhtml:link alternates, plain XML` },
  'ext-gz': { file: 'ext.xml.gz', extensions: true, gzip: true, text: `the same, gzipped (level ${GZIP_LEVEL})` },
  real: { file: 'real.xml', realistic: true, gzip: false, text: `${URLS.toLocaleString('en-US')} URLs of realistic shape (bench/lib/realistic.js: 30% with a query string, so &amp; in loc; lastmod as date or date-time; priorities 1, 0.5, 1.0; indentation, comments; 10% with an image, 10% with four alternates), plain XML` },
  'real-gz': { file: 'real.xml.gz', realistic: true, gzip: true, text: `the same, gzipped (level ${GZIP_LEVEL})` },
};

/** The realistic inputs: issue 24's targets are judged on these. */
export const REALISTIC_INPUTS = Object.keys(INPUTS).filter((key) => INPUTS[key].realistic === true);
/** The uniform inputs (the writer's own output, one shape throughout). */
export const UNIFORM_INPUTS = Object.keys(INPUTS).filter((key) => INPUTS[key].realistic !== true);

/** writeSitemaps with an index, so the one urlset file is a child (gzipped when asked), read back as bytes. */
export async function writeOne(lib, entries, gzip, scratch) {
  const out = mkdtempSync(join(scratch, 'write-'));
  try {
    const summary = await lib.writeSitemaps(entries, { outDir: out, baseUrl: BASE_URL, gzip, gzipLevel: GZIP_LEVEL, maxUrls: URLS, index: 'always', dedupe: false });
    check(summary.urls === URLS && summary.sitemaps.length === 1, `writeSitemaps wrote ${summary.urls} URLs in ${summary.sitemaps.length} files, expected ${URLS} in 1`);
    return readFileSync(summary.sitemaps[0].path);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function realisticBytes(gzip) {
  const xml = Buffer.from(realisticSitemap(URLS), 'utf8');
  return gzip ? gzipSync(xml, { level: GZIP_LEVEL }) : xml;
}

/**
 * Writes the inputs named by `keys` (all of INPUTS by default) into `dir` as INPUTS[key].file.
 * Resolves with `{ inputs: { [key]: { path, fileBytes, xmlBytes } } }`; xmlBytes is after gunzip.
 * When both the plain and the gzipped form of one kind are written, checks that they hold the same XML.
 */
export async function makeInputs(lib, dir, keys = Object.keys(INPUTS)) {
  const inputs = {};
  const xmlByKind = new Map();
  for (const key of keys) {
    const spec = INPUTS[key];
    check(spec !== undefined, `unknown input ${key}; use ${Object.keys(INPUTS).join(', ')}`);
    const bytes = spec.realistic ? realisticBytes(spec.gzip) : await writeOne(lib, spec.extensions ? generateEntriesWithExtensions(URLS) : generateEntries(URLS), spec.gzip, dir);
    const xml = spec.gzip ? gunzipSync(bytes) : bytes;
    const kind = spec.realistic ? 'realistic' : spec.extensions ? 'extension' : 'plain';
    const other = xmlByKind.get(kind);
    if (other !== undefined) check(other.equals(xml), `the gzipped ${kind} sitemap does not gunzip to the plain one`);
    else xmlByKind.set(kind, xml);
    const path = join(dir, spec.file);
    writeFileSync(path, bytes);
    inputs[key] = { path, fileBytes: bytes.length, xmlBytes: xml.length };
  }
  return { inputs };
}
