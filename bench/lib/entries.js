// Deterministic synthetic sitemap entries, shared by every contender of bench/generate.js.
//
// The same (n, seed) gives the same entries in every process: one mulberry32 stream, consumed in
// the same order whatever the entry shape. Each entry has
//   - an https URL of 60–120 characters (uniform; counted in UTF-16 units of the IRI as given), under
//     https://www.example.com/, made unique by the entry number in base 36;
//   - for exactly 5% of entries (every 20th) a non-ASCII path segment (café, 東京, москва, …);
//   - lastmod `YYYY-MM-DDThh:mm:ss+00:00`, uniform over 2020-01-01 … 2025-12-31;
//   - changefreq cycling the 7 values;
//   - priority 0.0–1.0 in steps of 0.1 (a number).

export const BASE_URL = 'https://www.example.com/';
export const SEED = 0x5eed_2024;

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'];

const SECTIONS = ['products', 'blog', 'news', 'category', 'docs', 'help', 'store', 'articles'];
const WORDS = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima',
  'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey',
  'xray', 'yankee', 'zulu', 'garden', 'kitchen', 'outdoor', 'summer', 'winter', 'sale', 'review', 'guide',
  'how-to', 'best', 'cheap', 'new', 'used', 'red', 'blue', 'green', 'large', 'small', 'shoes', 'shirts',
  'laptops', 'phones', 'cameras', 'travel', 'recipes', 'music', 'movies', 'books', 'sports', 'health',
];
// Every one is in the BMP, so slicing a URL never splits a surrogate pair.
const NON_ASCII = ['café', 'españa', 'straße', '東京', 'москва', 'zürich', 'crème-brûlée', 'niño', 'kraków', 'αθήνα', '서울', 'naïve'];

const FROM_S = Date.UTC(2020, 0, 1) / 1000;
const SPAN_S = Date.UTC(2026, 0, 1) / 1000 - FROM_S;
// Date.prototype.toISOString costs ~0.8 µs an entry; tables give the same text far cheaper.
const DAYS = Array.from({ length: SPAN_S / 86400 }, (_, d) => new Date((FROM_S + d * 86400) * 1000).toISOString().slice(0, 11));
const PAD2 = Array.from({ length: 60 }, (_, k) => String(k).padStart(2, '0'));

/** `YYYY-MM-DDThh:mm:ss+00:00` for `s` seconds after 2020-01-01T00:00:00Z. */
function lastmodText(s) {
  const day = Math.floor(s / 86400);
  const t = s - day * 86400;
  const h = Math.floor(t / 3600);
  const m = Math.floor((t - h * 3600) / 60);
  return DAYS[day] + PAD2[h] + ':' + PAD2[m] + ':' + PAD2[t - h * 3600 - m * 60] + '+00:00';
}

/** mulberry32: a small, fast, seeded 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Yields `n` entries. `shape` 'sitemapkit' gives `{ loc, lastmod, changefreq, priority }`, 'sitemap'
 * (the npm package) gives `{ url, lastmod, changefreq, priority }`; the values are identical.
 * Every entry is a fresh object. `first`: the number of the first entry (its URL is unique by it).
 */
export function* generateEntries(n, shape = 'sitemapkit', seed = SEED, first = 0) {
  const rand = mulberry32(seed);
  const asPeer = shape === 'sitemap';
  for (let i = first; i < first + n; i++) {
    const target = 60 + Math.floor(rand() * 61);
    let url = BASE_URL + SECTIONS[Math.floor(rand() * SECTIONS.length)] + '/' + i.toString(36) + '/';
    // At most 24 + 8 + 1 + 5 + 1 + 12 + 1 = 52 characters so far (< 60): the non-ASCII segment is never cut.
    if (i % 20 === 19) url += NON_ASCII[Math.floor(rand() * NON_ASCII.length)] + '/';
    while (url.length < target) {
      url += WORDS[Math.floor(rand() * WORDS.length)];
      url += rand() < 0.25 ? '-' + Math.floor(rand() * 100000) + '/' : '/';
    }
    if (url.length > target) url = url.slice(0, target);
    const lastmod = lastmodText(Math.floor(rand() * SPAN_S));
    const changefreq = CHANGEFREQS[i % 7];
    const priority = Math.floor(rand() * 11) / 10;
    yield asPeer ? { url, lastmod, changefreq, priority } : { loc: url, lastmod, changefreq, priority };
  }
}

const IMAGE_KINDS = ['photo', 'thumb', 'gallery', 'hero', 'detail'];
const LANGUAGES = ['de', 'fr', 'es', 'it', 'ja', 'pt-BR', 'en-GB'];

/**
 * The entries of `generateEntries(n, 'sitemapkit', seed)` (identical loc, lastmod, changefreq, priority),
 * each with extensions drawn from a second mulberry32 stream:
 *   - `i % 3` images (0, 1 or 2; mean 1), `{ loc }` of 60–90 characters under BASE_URL + 'images/';
 *   - hreflang alternates: the page itself as `en` plus 1–2 other languages (href: the path under a
 *     language prefix), and `x-default` on every 4th entry.
 */
export function* generateEntriesWithExtensions(n, seed = SEED) {
  const rand = mulberry32(seed ^ 0x1ac9e5);
  let i = 0;
  for (const entry of generateEntries(n, 'sitemapkit', seed)) {
    const images = [];
    for (let k = 0; k < i % 3; k++) {
      let loc = `${BASE_URL}images/${IMAGE_KINDS[Math.floor(rand() * IMAGE_KINDS.length)]}/${i.toString(36)}-${k}/`;
      const target = 60 + Math.floor(rand() * 31) - 4;
      while (loc.length < target) loc += WORDS[Math.floor(rand() * WORDS.length)] + '-';
      images.push({ loc: loc.slice(0, target) + '.jpg' });
    }
    const path = entry.loc.slice(BASE_URL.length);
    const alternates = [{ hreflang: 'en', href: entry.loc }];
    const others = 1 + Math.floor(rand() * 2);
    const first = Math.floor(rand() * LANGUAGES.length);
    for (let k = 0; k < others; k++) {
      const lang = LANGUAGES[(first + k) % LANGUAGES.length];
      alternates.push({ hreflang: lang, href: `${BASE_URL}${lang.toLowerCase()}/${path}` });
    }
    if (i % 4 === 0) alternates.push({ hreflang: 'x-default', href: entry.loc });
    if (images.length > 0) entry.images = images;
    entry.alternates = alternates;
    i++;
    yield entry;
  }
}
