// Sitemaps with the shapes real ones have (../shared/corpus), for the read, validate and discover
// benchmarks. Uniform files (one date form, no query strings, no entity references) flatter a fast
// path tuned to them; real files mix:
//   - URLs with a query string, so `&amp;` inside <loc> (about 30%), some with a %-escape;
//   - lastmod as a date (`2024-03-05`) or a date-time (`…T10:20:30+01:00`, `…Z`, with fractions);
//   - priority written `1`, `0.5`, `1.0`, `0.80`; optional fields left out;
//   - indentation and line breaks between elements, an XML comment now and then;
//   - image:image on some URLs (10%) and xhtml:link alternates on some (10%).
// Every URL is valid and unique, so a validator reports nothing: the figures measure reading, not
// reporting. Deterministic: the same (n, seed) gives the same bytes.

import { BASE_URL, CHANGEFREQS, mulberry32 } from './entries.js';

export const REALISTIC_SEED = 0x7ea1_5171;

const SECTIONS = ['products', 'blog', 'news', 'category', 'search', 'help', 'store', 'tag'];
const WORDS = ['garden', 'kitchen', 'outdoor', 'summer', 'winter', 'sale', 'review', 'guide', 'how-to', 'best', 'red', 'blue', 'shoes', 'laptops', 'travel', 'recipes'];
const PARAMS = ['id', 'ref', 'page', 'sort', 'color', 'size', 'utm_source', 'lang'];
const PRIORITIES = ['1', '0.5', '1.0', '0.80', '0.3', '0.9'];
const LANGUAGES = ['de', 'fr', 'es', 'pt-BR'];

const pad = (n) => (n < 10 ? '0' : '') + n;

function lastmod(rand) {
  const t = new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 6 * 365 * 86_400) * 1000);
  const date = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  const form = rand();
  if (form < 0.4) return date;
  const time = `${date}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
  if (form < 0.7) return `${time}+01:00`;
  if (form < 0.9) return `${time}Z`;
  return `${time}.${String(Math.floor(rand() * 1000)).padStart(3, '0')}Z`;
}

/** The URL of entry i under `section`, its query's `&` written as `amp` (`&amp;` in XML). */
function urlIn(section, i, rand, amp) {
  let url = `${BASE_URL}${section}/${WORDS[Math.floor(rand() * WORDS.length)]}-${i.toString(36)}`;
  if (rand() < 0.1) url += '/caf%C3%A9';
  if (rand() < 0.3) {
    const n = 1 + Math.floor(rand() * 3);
    const query = [];
    for (let k = 0; k < n; k++) query.push(`${PARAMS[(i + k) % PARAMS.length]}=${Math.floor(rand() * 10_000)}`);
    url += '?' + query.join(amp);
  } else if (rand() < 0.5) url += '/';
  return url;
}

/** The URL of entry i, as it stands in the XML (`&` escaped). */
function loc(i, rand) {
  return urlIn(SECTIONS[Math.floor(rand() * SECTIONS.length)], i, rand, '&amp;');
}

/**
 * Entry i of the realistic shapes, as `generate` reads it from JSON Lines (the loc unescaped; a
 * priority as written). urlElement writes the same entry as XML, from the same random numbers.
 */
export function nextRealisticEntry(i, rand) {
  const entry = withFields({ loc: loc(i, rand).replaceAll('&amp;', '&') }, i, rand);
  // The alternates' page is the `de` one of its group (every page lists all, itself included).
  if (entry.alternates !== undefined) entry.loc = `${BASE_URL}alt/${i.toString(36)}-de`;
  return entry;
}

/** The fields after the loc, drawn from `rand` in one order for both entry makers. */
function withFields(entry, i, rand) {
  if (rand() < 0.9) entry.lastmod = lastmod(rand);
  if (rand() < 0.6) entry.changefreq = CHANGEFREQS[i % 7];
  if (rand() < 0.7) entry.priority = PRIORITIES[Math.floor(rand() * PRIORITIES.length)];
  if (i % 10 === 3) entry.images = [{ loc: `${BASE_URL}img/${i.toString(36)}.jpg` }];
  if (i % 10 === 7) entry.alternates = LANGUAGES.map((lang) => ({ hreflang: lang, href: `${BASE_URL}alt/${i.toString(36)}-${lang}` }));
  return entry;
}

/** One `<url>` element, indented as generators write them. */
function urlElement(i, rand) {
  const entry = nextRealisticEntry(i, rand);
  let out = `  <url>\n    <loc>${entry.loc.replaceAll('&', '&amp;')}</loc>\n`;
  if (entry.lastmod !== undefined) out += `    <lastmod>${entry.lastmod}</lastmod>\n`;
  if (entry.changefreq !== undefined) out += `    <changefreq>${entry.changefreq}</changefreq>\n`;
  if (entry.priority !== undefined) out += `    <priority>${entry.priority}</priority>\n`;
  for (const image of entry.images ?? []) out += `    <image:image>\n      <image:loc>${image.loc}</image:loc>\n    </image:image>\n`;
  for (const { hreflang, href } of entry.alternates ?? []) out += `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${href}"/>\n`;
  return out + '  </url>\n';
}

/**
 * A urlset of `n` entries with the shapes above (about 200 bytes an entry). The alternates of an
 * entry name pages the file does not list (only the `de` one), as in a per-language file set.
 */
export function realisticSitemap(n, seed = REALISTIC_SEED) {
  const rand = mulberry32(seed);
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n        xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'];
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 0) parts.push(`  <!-- section ${i / 1000} -->\n`);
    parts.push(urlElement(i, rand));
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/**
 * Entry `i` of a catalogue as a UrlEntry (bench/scale.js), with the shapes above: the URL under
 * `section` (query strings with `&`, %-escapes, trailing slashes), both lastmod forms, optional
 * changefreq and priority, an image on 10% and alternates on 10%. A function of (i, section, seed)
 * alone, so a change feed can name entry i again without generating the others.
 */
export function realisticEntry(i, section, seed = REALISTIC_SEED) {
  const rand = mulberry32((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
  return withFields({ loc: urlIn(section, i, rand, '&') }, i, rand);
}
