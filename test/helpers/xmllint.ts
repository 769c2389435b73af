// libxml2's xmllint (compiled to WebAssembly by the xmllint-wasm package, so no system package is
// needed) validating against the schemas in schemas/: the same check as
// `xmllint --noout --schema schemas/sitemap.xsd FILE`.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML, memoryPages } from 'xmllint-wasm';

const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
const FILES = ['sitemap.xsd', 'siteindex.xsd', 'sitemap-image.xsd', 'sitemap-video.xsd', 'sitemap-news.xsd', 'xhtml-link.xsd', 'all.xsd', 'all-index.xsd'];
const schemas = new Map(FILES.map((name) => [name, readFileSync(SCHEMA_DIR + name, 'utf8')]));

export type SchemaName = 'sitemap' | 'siteindex' | 'all' | 'all-index';

export interface XmllintResult {
  valid: boolean;
  errors: string[];
}

/** Validates `xml` (text or UTF-8 bytes) against a schema in schemas/. */
export async function xmllint(xml: string | Uint8Array, schema: SchemaName, fileName = 'doc.xml'): Promise<XmllintResult> {
  const main = `${schema}.xsd`;
  const result = await validateXML({
    xml: [{ fileName, contents: typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8') }],
    schema: [{ fileName: main, contents: schemas.get(main) as string }],
    preload: FILES.filter((f) => f !== main).map((f) => ({ fileName: f, contents: schemas.get(f) as string })),
    initialMemoryPages: 256,
    maxMemoryPages: memoryPages.GiB,
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

/**
 * Validates many documents against one schema in a single run of xmllint (one WebAssembly start, the
 * schemas compiled once): true for each document xmllint says "validates", in order.
 */
export async function xmllintEach(docs: readonly (string | Uint8Array)[], schema: SchemaName): Promise<boolean[]> {
  if (docs.length === 0) return [];
  const main = `${schema}.xsd`;
  const names = docs.map((_, i) => `doc${i}.xml`);
  const result = await validateXML({
    xml: docs.map((xml, i) => ({ fileName: names[i] as string, contents: typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8') })),
    schema: [{ fileName: main, contents: schemas.get(main) as string }],
    preload: FILES.filter((f) => f !== main).map((f) => ({ fileName: f, contents: schemas.get(f) as string })),
    initialMemoryPages: 256,
    maxMemoryPages: memoryPages.GiB,
  });
  const validated = new Set(result.rawOutput.split('\n').map((line) => /^(doc\d+\.xml) validates$/.exec(line.trim())?.[1]).filter((n) => n !== undefined));
  return names.map((n) => validated.has(n));
}
