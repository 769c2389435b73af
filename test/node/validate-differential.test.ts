// Differential test against libxml2 (xmllint-wasm): our schema verdict (`schemaValid`) must match
// `xmllint --noout --schema`, and `sitemapkit validate` (the CLI, run in-process) must exit 0 only
// where xmllint accepts the file, for every XML file of ../shared/corpus/ and of test/fixtures/, and
// for fast-check mutations of rich sitemaps and of every corpus file. The schema is schemas/all.xsd
// (sitemap.xsd with the image, video, news and xhtml:link schemas, so that the strict ##other
// wildcards find them) or schemas/all-index.xsd for an index. xmllint runs once for all the
// documents of a kind (xmllintEach), which keeps the test to seconds.
//
// Deliberate differences, left out of the comparison:
// - files not in UTF-8, or with invalid bytes: the xmllint-wasm build has no iconv (no windows-1252),
//   and the helper hands it text (invalid bytes already replaced); we decode every encoding the
//   WHATWG standard names and report invalid bytes ourselves.
// An RSS or Atom feed is compared too: no sitemap schema declares it, so xmllint refuses it, and
// `validate` exits 1 on it (feed/no-schema) unless told otherwise with --rule.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { validateSitemap } from '../../src/node/validate-sitemap.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { xmllintEach } from '../helpers/xmllint.js';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const NOW = Date.UTC(2026, 0, 1);

function xmlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) xmlFiles(p, out);
    else if (/\.(?:xml|rss|atom)$/.test(e.name)) out.push(p);
  }
  return out;
}

interface Checked {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly index: boolean;
  readonly schemaValid: boolean;
  readonly exit: number;
}

/**
 * Our side for each file: the verdict of validateSitemap (the CLI's way: bytes, decoding, gzip) and
 * the exit status of `sitemapkit validate FILE`. Files whose encoding xmllint-wasm cannot read are left out.
 */
async function ours(paths: readonly { name: string; path: string }[], cwd: string): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const { name, path } of paths) {
    const report = await validateSitemap(path, { now: NOW });
    if (report.diagnostics.some((d) => d.code.startsWith('encoding/'))) continue;
    const cli = await runCli(['validate', path, '--now', '2026-01-01', '--format', 'json'], { cwd });
    out.push({ name, bytes: readFileSync(path), index: report.format === 'sitemapindex', schemaValid: report.schemaValid, exit: cli.code });
  }
  return out;
}

/** Every disagreement with xmllint: the verdict, and an exit 0 where xmllint refuses the file. */
async function disagreements(checked: readonly Checked[]): Promise<string[]> {
  const urlsets = checked.filter((c) => !c.index);
  const indexes = checked.filter((c) => c.index);
  const [a, b] = await Promise.all([xmllintEach(urlsets.map((c) => c.bytes), 'all'), xmllintEach(indexes.map((c) => c.bytes), 'all-index')]);
  const theirs = new Map<Checked, boolean>([...urlsets.map((c, i) => [c, a[i] as boolean] as const), ...indexes.map((c, i) => [c, b[i] as boolean] as const)]);
  const wrong: string[] = [];
  for (const c of checked) {
    const valid = theirs.get(c) as boolean;
    if (c.schemaValid !== valid) wrong.push(`${c.name}: schemaValid ${c.schemaValid}, xmllint ${valid}`);
    if (c.exit === 2) wrong.push(`${c.name}: exit 2`);
    if (c.exit === 0 && !valid) wrong.push(`${c.name}: exit 0, but xmllint refuses it`);
  }
  return wrong;
}

const URLSET_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://example.com/a</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>
<url><loc>https://example.com/b</loc><image:image><image:loc>https://example.com/b.jpg</image:loc><image:title>B</image:title></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/b"/></url>
</urlset>
`;
const MEDIA_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://example.com/v</loc><video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc allow_embed="yes">https://example.com/p</video:player_loc><video:duration>600</video:duration><video:family_friendly>YES</video:family_friendly><video:restriction relationship="allow">IE GB</video:restriction><video:price currency="EUR" type="rent" resolution="HD">1.99</video:price><video:requires_subscription>no</video:requires_subscription><video:platform relationship="allow">web tv</video:platform><video:live>No</video:live></video:video></url>
<url><loc>https://example.com/n</loc><news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:access>Subscription</news:access><news:genres>Blog, OpEd</news:genres><news:publication_date>2024-01-01</news:publication_date><news:title>T</news:title><news:stock_tickers>NASDAQ:AMAT</news:stock_tickers></news:news></url>
</urlset>
`;
const INDEX_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/a.xml</loc><lastmod>2024-01-02</lastmod></sitemap>
<sitemap><loc>https://example.com/b.xml.gz</loc></sitemap>
</sitemapindex>
`;

const SNIPPETS = [
  ' ', 'x', '<x/>', '<loc>https://e.com/</loc>', '<priority>0.5</priority>', '<lastmod>2024</lastmod>', ' id="1"', '%zz', '&amp;', '<foo:bar xmlns:foo="http://f.example/"/>',
  '<image:caption>c</image:caption>', '<changefreq>daily</changefreq>', '<sitemap><loc>https://e.com/s.xml</loc></sitemap>', '</url>', '<url>', '<!-- c -->', '<![CDATA[x]]>',
  '\u0000', '\u0001', '\u000b', '\uffff', '\ufffe', '\ud800', '&#0;', '&#x1F;', '&#xFFFE;', '\u0085', '\ud83d\ude00', 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.8"',
];
const VALUES: Array<[from: string, to: readonly string[]]> = [
  ['daily', ['Daily', 'DAILY', ' daily', '']],
  ['0.5', ['1.5', '.5', '0,5', '-0']],
  ['2024-01-02T03:04:05+00:00', ['2024-02-30', '2024-01-02T03:04:05', '2024-01', '2024-01-02T03:04+00:00']],
  ['https://example.com/a', ['https://example.com/ a', '', 'example.com/a', 'https://example.com/a\u0000', 'https://example.com:/a', 'https://example.com:8080/a']],
  ['YES', ['yes', 'Yes', 'yEs', 'true']],
  ['HD', ['hd', 'SD', 'Hd', '4k']],
  ['rent', ['RENT', 'Rent', 'buy']],
  ['web tv', ['web  tv', 'WEB', 'web,tv']],
  ['IE GB', ['ie', 'IE,GB', '']],
  ['Blog, OpEd', ['Blog,OpEd', 'blog', 'Blog ,OpEd']],
  ['<news:language>en</news:language>', ['<news:language>en-US</news:language>', '<news:language>zh-cn</news:language>']],
  ['NASDAQ:AMAT', ['NAS_DAQ:AMAT', 'BÖRSE:SAP', 'AMAT']],
  ['http://www.sitemaps.org/schemas/sitemap/0.9', ['http://www.google.com/schemas/sitemap/0.84', 'https://www.sitemaps.org/schemas/sitemap/0.9', '']],
];

type Edit = readonly ['insert', number, string] | readonly ['delete', number, number] | readonly ['replace', number, number];
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom(...SNIPPETS)),
  fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({ min: 1, max: 12 })),
  fc.tuple(fc.constant('replace' as const), fc.nat(VALUES.length - 1), fc.nat()),
);

function apply(doc: string, edits: readonly Edit[]): string {
  let out = doc;
  for (const e of edits) {
    if (e[0] === 'insert') {
      const at = e[1] % (out.length + 1);
      out = out.slice(0, at) + e[2] + out.slice(at);
    } else if (e[0] === 'delete') {
      const at = e[1] % (out.length + 1);
      out = out.slice(0, at) + out.slice(at + e[2]);
    } else {
      const [from, to] = VALUES[e[1]] as [string, readonly string[]];
      out = out.replace(from, to[e[2] % to.length] as string);
    }
  }
  return out;
}

describe('schema verdict and exit status = xmllint --schema', () => {
  it('on every XML file of the corpus and the fixtures', async () => {
    const files = [...xmlFiles(CORPUS), ...xmlFiles(FIXTURES)];
    assert.ok(files.length > 20);
    const checked = await ours(files.map((path) => ({ name: path, path })), tempDir());
    assert.ok(checked.length > 20, `compared ${checked.length}`);
    assert.ok(checked.some((c) => c.exit === 0) && checked.some((c) => c.exit === 1));
    assert.ok(files.some((f) => f.endsWith('.rss')) && files.some((f) => f.endsWith('.atom')), 'the feeds of the corpus are compared');
    assert.deepStrictEqual(await disagreements(checked), []);
  });

  it('on the XML declaration\'s version: what libxml2 reads as 1.x (1.0, 1.1, "1.") and what it refuses', async () => {
    const dir = tempDir();
    const versions = ['1.0', '1.1', '1.', '1', '10', '2.0', 'abc'];
    const docs = versions.map((v, i) => ({ name: `v${i}.xml`, path: join(dir, `v${i}.xml`) }));
    versions.forEach((v, i) => writeFileSync((docs[i] as { path: string }).path, INDEX_BASE.replace('version="1.0"', `version="${v}"`)));
    const checked = await ours(docs, dir);
    assert.deepStrictEqual(checked.map((c) => c.schemaValid), [true, true, true, false, false, false, false]);
    assert.deepStrictEqual(await disagreements(checked), []);
  });

  it('on fuzzed variants: fast-check mutations of rich sitemaps and of every corpus file', async () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    const dir = tempDir();
    const bases = [URLSET_BASE, MEDIA_BASE, INDEX_BASE, ...xmlFiles(CORPUS).map((path) => readFileSync(path, 'utf8'))];
    // Many mutations of the rich sitemaps, a few of each corpus file; one or two edits each.
    const plan = bases.flatMap((base, b) => Array.from({ length: b < 3 ? 90 : 3 }, () => base));
    const edits = fc.sample(fc.array(edit, { minLength: 1, maxLength: 2 }), { numRuns: plan.length, seed });
    const docs = plan.map((base, i) => ({ name: `m${i}.xml`, text: apply(base, edits[i] as Edit[]), edits: edits[i] as Edit[] }));
    for (const d of docs) writeFileSync(join(dir, d.name), d.text);
    const checked = await ours(docs.map((d) => ({ name: d.name, path: join(dir, d.name) })), dir);
    assert.ok(checked.length > 300, `compared ${checked.length}`);
    const wrong = await disagreements(checked);
    const shown = wrong.slice(0, 5).map((w) => {
      const d = docs.find((x) => w.startsWith(`${x.name}:`));
      return `${w} after ${JSON.stringify(d?.edits)}`;
    });
    assert.deepStrictEqual(shown, [], `seed ${seed} (FC_SEED=${seed} to replay)`);
  });
});
