// Every command, declared: usage, options, help and docs/cli.md all come from here.
// Data only, so that the top-level help, the docs and the tests read it without loading a command.

import type { CommandSpec, OptionSpec } from './command.js';

// ---------------------------------------------------------------------------------------------------
// The shared options: a command takes them as they are, or withNote.

const BASE_URL: OptionSpec = {
  name: 'base-url',
  kind: 'text',
  value: 'URL',
  aliases: [{ name: 'location' }],
  help: 'where the sitemaps are served (https://www.example.com/)',
  group: 'input',
};

const LIMITS: OptionSpec = {
  name: 'limits',
  kind: 'choice',
  choices: ['current', 'legacy'],
  aliases: [{ name: 'profile' }],
  help: 'current (default: 50,000 URLs, 50M a file) or legacy (10M, as in 2008)',
  group: 'limits',
};

const MAX_URLS: OptionSpec = { name: 'max-urls', kind: 'count', value: 'N', help: 'URLs per file, fewer than the limits allow', group: 'limits' };

const MAX_BYTES: OptionSpec = { name: 'max-bytes', kind: 'size', value: 'SIZE', help: 'bytes of one sitemap, uncompressed (K, M, G allowed)', group: 'limits' };

const MAX_ENTRIES: OptionSpec = { name: 'max-entries', kind: 'count', value: 'N', help: 'entries read from one input at most', group: 'limits' };

const MAX_VALUE_LENGTH: OptionSpec = {
  name: 'max-value-length',
  kind: 'size',
  value: 'SIZE',
  help: 'characters of one value or text line at most (K, M, G allowed)',
  group: 'limits',
};

const ALLOW_PRIVATE: OptionSpec = { name: 'allow-private', kind: 'flag', help: 'fetch from loopback, private and link-local addresses', group: 'network' };

const ALLOW_ADDRESS: OptionSpec = { name: 'allow-address', kind: 'text', value: 'CIDR', multiple: true, help: 'allow this non-public range only (repeatable)', group: 'network' };

const TIMEOUT: OptionSpec = { name: 'timeout', kind: 'seconds', value: 'S', help: 'seconds per request, whole body included (default 30)', group: 'network' };

const USER_AGENT: OptionSpec = { name: 'user-agent', kind: 'header', value: 'UA', help: 'User-Agent header to send (default sitemapkit/VERSION)', group: 'network' };

const RETRIES: OptionSpec = { name: 'retries', kind: 'count', value: 'N', min: 0, max: 99, help: 'retries on connection errors, 429 and 5xx (default 3)', group: 'network' };

const MAX_REDIRECTS: OptionSpec = { name: 'max-redirects', kind: 'count', value: 'N', min: 0, help: 'redirects followed per request (default 5)', group: 'network' };

/** `--format`: the choices are the command's own; `--json` stays a way to say `--format json`. */
function format(choices: readonly string[], note: string): OptionSpec {
  return {
    name: 'format',
    kind: 'choice',
    value: 'FMT',
    choices,
    ...(choices.includes('json') ? { aliases: [{ name: 'json', value: 'json' }] } : {}),
    help: 'output format',
    note,
    group: 'output',
  };
}

const DRY_RUN: OptionSpec = { name: 'dry-run', kind: 'flag', help: 'write and send nothing', group: 'output' };

const NAME: OptionSpec = { name: 'name', kind: 'text', value: 'NAME', help: 'file names: NAME.xml, then NAME-….xml.gz (default sitemap)', group: 'output' };

const NO_GZIP: OptionSpec = { name: 'no-gzip', kind: 'flag', help: 'write plain .xml children (default .xml.gz)', group: 'output' };

const GZIP_LEVEL: OptionSpec = { name: 'gzip-level', kind: 'count', value: 'N', min: 1, max: 9, help: '1 (fastest) to 9 (smallest); default 6', group: 'output' };

/** -q means one thing everywhere: errors only; a command's note says what else it leaves out. */
const QUIET: OptionSpec = { name: 'quiet', short: 'q', kind: 'flag', help: 'print less; report errors only (not warnings and notes)', group: 'verbosity' };

const VERBOSE: OptionSpec = { name: 'verbose', short: 'v', kind: 'flag', help: 'print more', group: 'verbosity' };

const HELP: OptionSpec = { name: 'help', short: 'h', kind: 'flag', help: 'this help', group: 'verbosity' };

/** A shared option with what it does in one command. */
function withNote(option: OptionSpec, note: string): OptionSpec {
  return { ...option, note };
}

/** A command's declaration, with -h, --help last, as every command has it. */
function command(spec: CommandSpec): CommandSpec {
  return { ...spec, options: [...spec.options, HELP] };
}

// Options that several commands share, declared once so that they cannot drift apart.
const STATE: OptionSpec = { name: 'state', kind: 'text', value: 'FILE', help: 'the build state (default OUT/.sitemapkit/state)' };
const KEY_LOCATION: OptionSpec = { name: 'key-location', kind: 'text', value: 'URL', help: 'the key file, when not https://HOST/KEY.txt' };
const ENDPOINT: OptionSpec = { name: 'endpoint', kind: 'text', value: 'URL', help: 'where to submit (default api.indexnow.org)' };
const WRITE_KEY_FILE: OptionSpec = { name: 'write-key-file', kind: 'flag', help: 'write KEY.txt into the output folder (publish it)' };

const INPUT_FORMAT: OptionSpec = { name: 'input-format', kind: 'choice', value: 'FMT', choices: ['text', 'csv', 'tsv', 'jsonl'], help: 'text, csv, tsv or jsonl (default: the extension)' };
const COLUMNS: OptionSpec = { name: 'columns', kind: 'text', value: 'MAP', help: 'CSV/TSV columns by header, e.g. loc=Address,lastmod="Last Modified"' };
const XSL: OptionSpec = { name: 'xsl', kind: 'text', value: 'URL', help: 'add <?xml-stylesheet type="text/xsl" href="URL"?>' };
const NO_SCOPE: OptionSpec = { name: 'no-scope', kind: 'flag', help: 'accept URLs outside --base-url (cross-site submission via robots.txt)' };
const PAGE_BASE_URL = withNote(BASE_URL, '/a/b resolves against it');
const TEXT_OR_JSON = format(['text', 'json'], 'text (default) or json');
const DOCUMENT_MAX_BYTES = withNote(MAX_BYTES, 'per document, after decompression (default 100M)');
const DOCUMENT_MAX_ENTRIES = withNote(MAX_ENTRIES, 'per document (default 1,000,000)');

const VERBOSE_PROBLEMS = withNote(VERBOSE, 'every problem on a terminal too (not only the first 5 of each code per file)');
const QUIET_SUMMARY = withNote(QUIET, 'no progress, no summary');
const QUIET_NO_SUMMARY = withNote(QUIET, 'no summary');

const SHARDS: OptionSpec = { name: 'shards', kind: 'count', value: 'N', min: 1, max: 65536, help: 'a sharded set: N buckets per section, a manifest each (docs/scale.md)' };

/** How a sitemap set is written, as generate and build both write one: limits, split, names, gzip. */
const SET_OUTPUT: readonly OptionSpec[] = [LIMITS, MAX_URLS, withNote(MAX_BYTES, 'the split point'), NAME, NO_GZIP, GZIP_LEVEL];

const PER_INDEX: OptionSpec = { name: 'sitemaps-per-index', kind: 'count', value: 'N', min: 1, max: 50000, help: 'children per index file (default 50,000)' };

export const GENERATE = command({
  name: 'generate',
  summary: 'write a sitemap set (split, gzipped, indexed) from URL lists',
  usage: '[FILE|-]... --base-url URL --out DIR [options]',
  intro: `Write a complete sitemap set from lists of URLs (text, CSV, TSV, JSON Lines; gzip too): split at
50,000 URLs and at the byte limit, gzipped, with an index when there is more than one file.
Every URL is normalised, escaped, checked against the protocol's location rules, written once.`,
  positionals: true,
  options: [
    { name: 'out', kind: 'text', value: 'DIR', help: 'directory to write into (required); created if missing, other files left alone' },
    withNote(INPUT_FORMAT, 'stdin: its content'),
    COLUMNS,
    { name: 'lastmod', kind: 'text', value: 'now|DATE', help: 'lastmod of entries that have none (now: the run\'s start)' },
    { name: 'changefreq', kind: 'text', value: 'VALUE', help: 'changefreq of entries that have none (e.g. weekly)' },
    { name: 'priority', kind: 'text', value: 'VALUE', help: 'priority of entries that have none (0.0 to 1.0)' },
    { name: 'include', kind: 'text', value: 'GLOB', multiple: true, help: "write only URLs whose path matches (repeatable), e.g. 'blog/**'" },
    { name: 'exclude', kind: 'text', value: 'GLOB', multiple: true, help: "leave out URLs whose path matches (repeatable), e.g. 'drafts/**'" },
    { name: 'strict', kind: 'flag', help: 'reject, not drop, an entry with a bad optional field or a #fragment' },
    { name: 'index', kind: 'choice', value: 'MODE', choices: ['auto', 'always', 'never'], help: 'auto: an index for more than one file (default); always; never' },
    XSL,
    { name: 'no-dedupe', kind: 'flag', help: 'keep repeated URLs (saves ~16 bytes of memory per URL)' },
    NO_SCOPE,
    SHARDS,
    PAGE_BASE_URL,
    ...SET_OUTPUT,
    withNote(DRY_RUN, 'make the whole set, print what would be written and removed'),
    TEXT_OR_JSON,
    withNote(VERBOSE, 'every file in the summary, every problem on a terminal too'),
    QUIET_SUMMARY,
  ],
  notes: 'Input: FILE or - (standard input); the format from the extension (.txt .csv .tsv .jsonl) or content.',
  exit: `0 every entry written as given (unknown columns only warned about), 1 some lines rejected
or changed, 2 usage or fatal error, 130 or 143 stopped by SIGINT or SIGTERM.`,
  examples: [
    'sitemapkit generate urls.txt --base-url https://www.example.com/ --out public/',
    'sitemapkit generate pages.csv --base-url https://example.com/ --out dist --max-urls 10000',
    'cat urls.txt | sitemapkit generate - --base-url https://example.com/ --out out --format json',
  ],
  details: `Input (FILE, or - for standard input; several files are read in order):

- text: one URL per line: an absolute http(s) URL, or a path starting with / (resolved against
  --base-url). Blank lines and lines starting with # are ignored; any other line (a URL without its
  scheme, a relative path, a space or tab inside) is rejected, never turned into a URL.
- csv: a header line naming the columns loc, lastmod, changefreq, priority, found by common names in
  any case (url or Address for loc, Last Modified, Change Frequency) or named with --columns; other
  columns are ignored with one warning.
- tsv: the same with tabs (\\t \\n \\r \\\\ escapes), as "read --format tsv" writes.
- jsonl: one JSON object per line with the full entry model (images, videos, news, alternates); an
  unknown field is ignored with one warning per file.

Standard input is recognised by its content: JSON Lines when its first line starts with {, CSV or TSV
when it is a header naming a loc column, otherwise text; so "sitemapkit read X | sitemapkit generate -
..." works with every --format of read. gzip input is detected by content.

Every page URL must share the --base-url's scheme, host and port and sit under its path, or the line
is rejected (--no-scope accepts it). The image, video and alternate URLs of JSON Lines entries are
resolved against --base-url too. --include and --exclude match the URL's path from the host's root,
without the leading /, query and fragment.

Output is atomic, with one commit point: the set is written to a temporary directory inside DIR; its
children go in under new names (named by their content, they never replace a file the old index
names), then the entry file is renamed over the old one, then the files it no longer names are
removed. A run stopped at any point leaves the old set or the new one, never a mix.

Problems are reported on standard error, one line each: FILE:LINE: error CODE reason (a rejected
line), or FILE:LINE: warning CODE reason for an entry written, but not as the input said (a bad optional field left out, a #fragment dropped, a lastmod in
the future, an hreflang that is no BCP 47 tag). On a terminal each code is shown 5 times, then
counted.`,
});

// validate's and report's settings of validation (validation-settings.ts reads them).
const NOW: OptionSpec = { name: 'now', kind: 'text', value: 'DATE', help: 'the date taken as now for "lastmod in the future" (tests)' };
const RULE: OptionSpec = { name: 'rule', kind: 'text', value: 'CODE=LEVEL', multiple: true, help: 'a rule\'s severity: error, warning, info or off (repeatable)' };
const CONFIG: OptionSpec = { name: 'config', kind: 'text', value: 'FILE', help: 'JSON settings (default: sitemapkit.config.json if present); options win' };
const VALIDATION_BASE_URL = withNote(BASE_URL, 'every URL must sit under it (default: the URL fetched)');

// The options of every command that fetches; fetch-input.ts httpClientOptions maps them.
const NETWORK: readonly OptionSpec[] = [ALLOW_PRIVATE, ALLOW_ADDRESS, TIMEOUT, RETRIES, MAX_REDIRECTS, USER_AGENT];

export const READ = command({
  name: 'read',
  summary: 'print the entries of sitemaps (XML, index, RSS, Atom, text; gzip) and their problems',
  usage: 'FILE|URL|-... [--format jsonl|csv|tsv|urls] [options]',
  intro: `Read sitemaps and print their entries: urlsets, indexes, RSS 2.0 and Atom feeds, text sitemaps,
plain or gzipped, in any encoding (recognised by the content, never by the file name). Nothing is
made up or repaired: an entry whose URL cannot be trusted is left out, and every problem reported
(bytes invalid in the file's encoding are read as U+FFFD: encoding/invalid-bytes, an error).`,
  positionals: true,
  options: [
    { name: 'max-nesting', kind: 'count', value: 'N', help: 'skip XML elements nested deeper than N; default 256', formerly: { name: 'max-depth', why: '--max-depth is the depth of nested sitemap indexes, in discover' } },
    { name: 'summary', kind: 'flag', help: 'after each input, one line on standard error: format, entries, problems, bytes' },
    withNote(MAX_BYTES, 'stop after this much decompressed input (default 100M)'),
    withNote(MAX_ENTRIES, 'default 1,000,000'),
    withNote(MAX_VALUE_LENGTH, 'longer ones are skipped (default 1M)'),
    format(['jsonl', 'csv', 'tsv', 'urls'], 'jsonl (default, the JSON Lines input of generate), csv, tsv or urls'),
    ...NETWORK,
    VERBOSE_PROBLEMS,
    withNote(QUIET, 'no progress'),
  ],
  notes: `Input: FILE, - for standard input, or an http(s) URL, fetched as "sitemapkit validate" fetches it;
an address without a scheme that names no file (example.com/sitemap.xml) is tried over https.
Problems (standard error), one per line: FILE:LINE:COL: severity code message (hint)
  e.g. sitemap.xml:12:5: error xml/raw-ampersand a raw "&" in text; ...
On a terminal, lines are cut to its width and each code is shown 5 times per file, then counted.
A budget exceeded is an error (budget/...): what was read is printed, and reading stops.`,
  exit: '0 no errors (warnings allowed), 1 some input had errors, 2 usage error or unreadable input.',
  examples: [
    'sitemapkit read sitemap.xml',
    'sitemapkit read sitemap-index.xml --format urls',
    'curl -s https://example.com/sitemap.xml.gz | sitemapkit read - --format csv > urls.csv',
    'sitemapkit read urls.txt --max-entries 50000 --summary',
    'sitemapkit read https://example.com/sitemap.xml.gz --format urls',
  ],
  details: `Output (standard output), --format:

- jsonl (default): one JSON object per line. A page is the entry itself, with every field read,
  extensions included: {"loc":"https://example.com/a","lastmod":"2024-05-01","images":[...]} (the JSON
  Lines input of "sitemapkit generate"). A child of a sitemap index is wrapped:
  {"sitemap":{"loc":"https://example.com/s1.xml"}}.
- csv: a header, then loc,lastmod,changefreq,priority per page (RFC 4180 quoting); for a sitemap index
  the columns are loc,lastmod. The first entry decides the columns.
- tsv: the same with tabs; a tab, newline or backslash inside a value is written \\t, \\n, \\r or \\\\.
- urls: one loc per line, pages and index children alike; a line break inside a loc is written %0A
  or %0D.

Values are printed as written in the sitemap (trimmed): an invalid lastmod or priority is printed as
is, and reported. LINE and COL are 1-based (columns count UTF-16 code units); <stdin> names standard
input. Codes are stable; see docs/rules.md.

A budget that is exceeded is an error like any other (budget/...): what was read up to it is printed
and reading stops (or, for depth and value length, the part is skipped). A gzip bomb costs the
--max-bytes budget, never more.`,
});


export const VALIDATE = command({
  name: 'validate',
  summary: 'check sitemaps against the schemas and the protocol: codes, positions, fixes',
  usage: 'FILE|-|URL... [options]',
  intro: `Check sitemaps the way search engines read them: sitemap.xsd, siteindex.xsd, Google's image,
video and news schemas, and the protocol's rules no schema expresses (URL encoding and length,
location scope, limits, duplicates, future dates, hreflang). Each problem has a stable code.`,
  positionals: true,
  options: [
    { name: 'max-warnings', kind: 'count', value: 'N', min: 0, help: 'exit 1 when there are more than N warnings (default: no limit)' },
    RULE,
    CONFIG,
    { name: 'follow', kind: 'flag', help: 'for a sitemap index, also validate the children it lists' },
    NOW,
    VALIDATION_BASE_URL,
    LIMITS,
    format(['stylish', 'json', 'github', 'sarif', 'junit'], 'stylish (default), json, github, sarif or junit'),
    ...NETWORK,
    withNote(VERBOSE, 'every row and every hint on a terminal too (not only the first 5 of each code per file)'),
    withNote(QUIET, 'no progress; the last line still counts every problem'),
  ],
  notes: `Input: FILE, - for standard input, or an http(s) URL, fetched as "sitemapkit discover" fetches;
an address without a scheme that names no file (example.com/sitemap.xml) is tried over https.
--config FILE: {"rules": {"CODE": "LEVEL"}, "limits": "legacy", "baseUrl": "...", "maxWarnings": 0}`,
  exit: `0 no errors (and warnings within --max-warnings), 1 errors or too many warnings,
2 usage error or an input that cannot be read.`,
  examples: [
    'sitemapkit validate sitemap.xml',
    'sitemapkit validate public/sitemap-index.xml --follow --base-url https://example.com/',
    'sitemapkit validate sitemap.xml.gz --format sarif > sitemap.sarif',
    'sitemapkit validate https://example.com/sitemap_index.xml --follow',
  ],
  details: `Input: FILE, - for standard input, or an http(s) URL: the sitemap is fetched (as "sitemapkit
discover" fetches: private addresses refused, a deadline, retries, redirects, byte caps) and its
location scope is checked against the URL that answered, unless --base-url says otherwise.

--base-url (also spelled --location, as before): where the sitemap is served, e.g.
https://example.com/blog/ or https://example.com/blog/sitemap.xml: every URL must have its scheme,
host and port and sit under /blog/.

--follow: for a sitemap index, also validate the children it lists: for a file, each where its URL
puts it relative to the index (the index's URL is --base-url, else the root of the child's site:
https://example.com/en/sitemap.xml in public/sitemap.xml is public/en/sitemap.xml), a child not on
disk being an error; for a URL, every child, fetched.

--format: stylish (default), json, github (Actions annotations), sarif (SARIF 2.1.0, for code
scanning), junit (CI test reports). stylish on a terminal cuts each row to its width and shows the
first 5 rows of each code per file, then "… and N more: CODE" (the summary counts them all); -v shows
every row and every hint. A pipe or a file gets every row, whole.`,
});

export const DISCOVER = command({
  name: 'discover',
  summary: "find a site's sitemaps (robots.txt, well-known paths, indexes) and every URL in them",
  usage: 'URL... [--format tree|jsonl|urls|csv] [--out FILE] [options]',
  intro: `Find every sitemap a site publishes and every URL in them, as a search engine does: robots.txt
Sitemap: lines, else the well-known paths; indexes followed. URL is a site (https://example.com/),
a robots.txt URL or a sitemap URL; without a scheme (example.com) it is tried over https, never over
plain http. Every document is read as "sitemapkit read" does.`,
  positionals: true,
  options: [
    { name: 'out', kind: 'text', value: 'FILE', help: 'write the output to FILE (replaced whole at the end)' },
    { name: 'probe', kind: 'flag', help: 'probe the well-known paths even when robots.txt names sitemaps' },
    { name: 'respect-robots', kind: 'flag', help: 'do not fetch sitemaps robots.txt disallows for us: the group of our product token, NAME of a --user-agent "… (compatible; NAME/1.0)" (as Googlebot), else its first word' },
    { name: 'cross-host', kind: 'choice', value: 'MODE', choices: ['warn', 'deny'], help: 'a child on another host: warn (default; follow it) or deny (do not fetch)' },
    { name: 'concurrency', kind: 'count', value: 'N', help: 'requests at once (default 16)' },
    { name: 'per-host', kind: 'count', value: 'N', help: 'requests at once to one host (default 4)' },
    { name: 'run-timeout', kind: 'seconds', value: 'S', help: 'seconds for the whole run (default: none)' },
    { name: 'max-depth', kind: 'count', value: 'N', min: 0, help: 'index levels followed (default 5)' },
    { name: 'max-sitemaps', kind: 'count', value: 'N', help: 'sitemaps listed by indexes fetched at most (default 50,000, one full index)' },
    { name: 'cache', kind: 'text', value: 'DIR', help: 'keep ETag/Last-Modified and documents in DIR; send conditional requests' },
    DOCUMENT_MAX_BYTES,
    format(['tree', 'jsonl', 'urls', 'csv'], 'tree (default on a terminal), jsonl (default otherwise), urls or csv'),
    ...NETWORK,
    withNote(VERBOSE, 'every problem on a terminal too (not only the first 5 of each code per document)'),
    QUIET_SUMMARY,
  ],
  notes: `Problems go to standard error (URL:LINE:COL: severity code message, the position when known)
except in the tree, which lists them under each document. A document cut short failed; the URLs
read before the cut are output, and its sitemap line says "cut".`,
  exit: '0 every document was read cleanly, 1 some document failed or had errors (or nothing was found), 2 usage error.',
  examples: [
    'sitemapkit discover https://www.example.com/',
    'sitemapkit discover https://www.example.com/ --format urls --out urls.txt',
    'sitemapkit discover https://www.example.com/sitemap_index.xml --format jsonl | jq .',
  ],
  details: `Discovery follows robots.txt Sitemap: lines (RFC 9309), then, when it names none, the well-known
paths (sitemap.xml, sitemap_index.xml, sitemap-index.xml, their .gz forms, sitemap.txt, sitemap,
sitemap_news.xml, sitemap-news.xml); indexes are followed recursively. Every document is read like
"sitemapkit read" does (XML, index, RSS, Atom, text; gzip; any encoding) and its problems are kept.

Output, --format:

- tree (default on a terminal): robots.txt → indexes → sitemaps, each with HTTP status, format, URLs,
  bytes, time and problems; then totals.
- jsonl (default otherwise): one JSON object per line, as they are found:
  {"type":"url","sitemap":"https://…/s1.xml","loc":"https://…/a",…},
  {"type":"sitemap","url":"https://…/s1.xml","status":200,"format":"urlset",…}, and a last
  {"type":"totals",…}.
- urls: the page URLs only, one per line.
- csv: loc,lastmod,changefreq,priority,sitemap (with a header).

A document whose body was cut short (fetch/truncated, fetch/timeout) failed; the URLs read from it
before the cut are output, and its sitemap line says "cut" with the failure's code; the totals count
them apart (cut, urlsFromCut). --cross-host warn says whether the other host's robots.txt
cross-submits the child.`,
});

export const BUILD = command({
  name: 'build',
  summary: "write a built site's sitemaps: truthful lastmod, stable files, noindex/canonical/hreflang read from the pages",
  usage: 'DIR --base-url URL [options]',
  intro: `Write the sitemaps of a built site (Hugo, Jekyll, Eleventy, Astro, Next export…): every .html page,
except noindex pages, redirect stubs, pages canonicalised elsewhere, 404/500 and --exclude. lastmod
changes only when a page's content does (a state file keeps hashes); children are split by section.`,
  positionals: true,
  options: [
    { name: 'trailing-slash', kind: 'choice', value: 'MODE', choices: ['always', 'never', 'preserve'], help: 'preserve (default): a/index.html → a/; always; never: → a' },
    { name: 'clean-urls', kind: 'flag', help: 'drop .html: a/b.html → a/b' },
    { name: 'exclude', kind: 'text', value: 'GLOB', multiple: true, help: "leave out pages whose path in DIR matches (repeatable), e.g. 'drafts/**'" },
    { name: 'images', kind: 'flag', help: "add <image:image> for each <img src> of the page's main content" },
    STATE,
    { name: 'initial-lastmod', kind: 'choice', value: 'MODE', choices: ['git', 'mtime', 'now', 'none'], help: 'lastmod of a page seen first: git (default), mtime, now or none' },
    { name: 'source-map', kind: 'text', value: 'FILE|RULE', multiple: true, help: "page → source: JSON file or 'posts/*/index.html=content/posts/*.md'" },
    { name: 'out', kind: 'text', value: 'DIR', help: 'where the sitemaps go (default: DIR, next to the pages)' },
    { name: 'force', kind: 'flag', help: 'replace OUT/NAME.xml even when this build did not write it' },
    { name: 'threads', kind: 'count', value: 'N', min: 0, max: 64, help: 'threads scanning pages (default: one per core from 2,000 pages; 0: none)' },
    { name: 'indexnow-key', kind: 'text', value: 'KEY', help: 'then submit the changed URLs to IndexNow (sitemapkit indexnow --help)' },
    withNote(KEY_LOCATION, 'with --indexnow-key'),
    withNote(ENDPOINT, 'with --indexnow-key'),
    withNote(WRITE_KEY_FILE, 'with --indexnow-key'),
    BASE_URL,
    ...SET_OUTPUT,
    withNote(DRY_RUN, 'print what would be written and removed; no IndexNow'),
    USER_AGENT,
    RETRIES,
    TEXT_OR_JSON,
    withNote(VERBOSE, 'list every page left out and why'),
    QUIET_SUMMARY,
  ],
  exit: `0 built, 1 pages unreadable or unlisted, a URL shared, no URL listed, or IndexNow refused,
2 usage or fatal error, or OUT/NAME.xml is a sitemap this build did not write (--force).`,
  examples: [
    'sitemapkit build public --base-url https://www.example.com/',
    "sitemapkit build _site --base-url https://example.com/ --clean-urls --exclude 'drafts/**'",
    'sitemapkit build dist --base-url https://example.com/ --indexnow-key 5f2b8c1d9e7a4b3c',
  ],
  details: `The build time is now, or SOURCE_DATE_EPOCH (seconds) when set.

Every .html page becomes a URL, except pages that should not be listed: noindex (<meta
name="robots">, googlebot, X-Robots-Tag), redirect stubs (<meta http-equiv="refresh">), pages whose
<link rel="canonical"> names another URL (that one is listed instead when it is a page of the site),
404.html, 500.html, the single-page-app fallback 200.html at the top, and --exclude globs. hreflang alternates come from <link rel="alternate"
hreflang>: one naming a page of DIR is written as that page's listed URL, or dropped with a warning
when the page is left out or missing.

lastmod tells the truth: a state file remembers a hash of each page's content (without build noise:
whitespace, comments, inline scripts and styles, build ids, cache-busting query strings, hashed asset
names), and a page's lastmod changes only when that hash does. Children are split by section (the
first path segment, once it holds a 32nd of the site's URLs: smaller ones share the top level's
file; hash buckets inside a file too large for one), so adding a page rewrites only the file that
holds it: the others keep their bytes and their lastmod in the index.

--trailing-slash: preserve: a/index.html → a/, a/b.html → a/b.html (default); always: every URL
without a file extension ends in /; never: a/index.html → a (the root stays /). --clean-urls drops
.html (a page whose canonical is another form of its URL is listed as these say, with a warning).
--images: <image:image> for each <img src> of <main>, else <article>, else the body without header,
nav, footer and aside.

--initial-lastmod, for a page seen for the first time: git: the last commit of its source file
(default; none outside a git repository or before a shallow clone's history); mtime: the file's
modification time; now: this build's time; none: no lastmod. --source-map FILE|RULE: JSON
{"posts/a/index.html": "content/posts/a.md", …} (relative to FILE), or a rule
'posts/*/index.html=content/posts/*.md' (repeatable; the first whose source exists); a new or
changed page takes its source's last commit.

--out: a folder inside DIR is served below --base-url, and the protocol then limits its sitemaps to
URLs under that folder. --force replaces OUT/NAME.xml even when another generator wrote it (exit 2
without it).

The new set replaces the old one at one instant: changed children are written under new names
(NAME-SECTION.TOKEN.xml.gz, TOKEN a hash of the content) beside the old ones, then the index is
renamed over the old index, then the files it no longer names are removed. A build that lists no URL
(every page left out, often a wrong --base-url) writes and removes nothing.`,
});

export const SERVE = command({
  name: 'serve',
  summary: 'serve a set over HTTP: exact caching headers, gzip negotiation, follows the set when it is replaced',
  usage: 'DIR [--port 8080] [--host 127.0.0.1] [--base-url URL] [options]',
  intro: `Serve the sitemap set that "sitemapkit generate" or "build" wrote into DIR: the entry file and
the files it names, nothing else. ETag, Last-Modified and 304s, gzip negotiated, one byte range
(206, as a resumed download asks); a set replaced by the next run is served from then on, and the
children of the old one stay served for a while.`,
  positionals: true,
  options: [
    { name: 'port', kind: 'count', value: 'N', min: 0, max: 65535, help: 'the port to listen on (default 8080; 0: any free port)' },
    { name: 'host', kind: 'text', value: 'ADDR', help: 'the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)' },
    { name: 'cache-control', kind: 'header', value: 'VALUE', help: 'the Cache-Control of sitemaps (default "public, max-age=300")' },
    { name: 'no-robots-header', kind: 'flag', help: 'no X-Robots-Tag: noindex on sitemaps (sent by default)' },
    { name: 'log', kind: 'choice', value: 'FMT', choices: ['common', 'json', 'none'], help: 'one line per request on standard output: common (default), json or none' },
    { name: 'grace', kind: 'seconds', value: 'S', help: "how long a replaced set's children stay served (default 3600)" },
    { name: 'header-timeout', kind: 'seconds', value: 'S', help: 'seconds a client has to send its request headers (default 10)' },
    { name: 'send-timeout', kind: 'seconds', value: 'S', help: 'seconds a client may take no byte of an answer before it is cut off (default 60)' },
    withNote(BASE_URL, 'sitemaps are answered below its path; the Host header is never used'),
    withNote(NAME, 'serve NAME.xml and the files it names'),
    withNote(QUIET, 'no start and reload lines on standard error'),
  ],
  notes: `Paths: BASE/NAME.xml, and each child at its path below BASE; a .xml.gz child is also answered as
.xml (gzip to clients that accept it, plain XML to the others). BASE/NAME.html: the set as a page
for people (files, URL counts, newest lastmod, a filterable list of URLs). Every other path is 404.`,
  exit: '0 stopped by SIGINT or SIGTERM (in-flight responses finished), 2 usage error, no set in DIR, or the port taken.',
  examples: [
    'sitemapkit serve public --port 8080',
    'sitemapkit serve out --base-url https://www.example.com/sitemaps/ --host 0.0.0.0 --log json',
    'sitemapkit serve out --cache-control "public, max-age=3600" --no-robots-header',
  ],
  details: `The set is held in memory with its tags (512 MiB at most; files beyond are read through handles opened
when the set is loaded), so a request never reaches the file system by its path: the state file,
temporary folders, dotfiles, other files and symlinks are never served, whatever the path says
(.., %2e%2e, %2f, %5c, doubled encodings). A child that is a symlink stops the set from loading.

Answers: GET and HEAD (405 with Allow otherwise); a strong ETag from the bytes; If-None-Match, then
If-Modified-Since, answered 304 (RFC 9110 §13.2.2); Last-Modified when the file's bytes last
changed. Content-Type: application/xml for .xml, text/plain for .txt, application/gzip for a .xml.gz
file; a .xml request accepting gzip gets the gzip bytes (Content-Encoding: gzip, Vary:
Accept-Encoding).

The set is followed: when the entry file is replaced (generate and build replace it last, once
everything it names is in place), the new set is loaded whole and answers from the next request on;
no answer mixes two sets. A new set that cannot be loaded (a named file missing, the entry file
cut short or not well-formed) is reported on standard error and the previous one is still served.

Log lines, --log common: ADDR - - [DATE] "METHOD PATH HTTP/1.1" STATUS BYTES MS; --log json: one
object per line with time, remote, method, path, status, bytes, ms.`,
});

export const INDEX = command({
  name: 'index',
  summary: "publish a sharded set's index from its shards' manifests",
  usage: 'MANIFEST... --out DIR [options]',
  intro: `Write the index of a sharded set from the manifests its shards wrote (generate --shards, or
workers each writing one shard): every shard must be there once and every child it lists in DIR.
The index file(s) go in last, at one instant; then the files of the previous set are removed.`,
  positionals: true,
  options: [
    { name: 'out', kind: 'text', value: 'DIR', help: 'the set\'s folder, where the shards wrote their children (required)' },
    PER_INDEX,
    TEXT_OR_JSON,
    QUIET_NO_SUMMARY,
  ],
  notes: `Past 50,000 children the index is split: NAME-indexes/NAME-index-1.xml, -2, … reached through the
link NAME-indexes, replaced at one instant; submit each (the protocol has no index of indexes).`,
  exit: '0 published, 2 usage error, a shard missing, a child missing or not as its manifest says, a set in DIR whose names clash, or DIR cannot be written (the previous set stays).',
  examples: ['sitemapkit index out/sitemap-shard-*-of-8.json --out out'],
});

export const APPLY = command({
  name: 'apply',
  summary: 'apply a change feed to a sharded set, rewriting only the children it touches',
  usage: 'CHANGES... --out DIR [options]',
  intro: `Apply changes to a published sharded set: JSON Lines of {"op":"upsert", ...entry} and
{"op":"delete","loc":...}, the last change of a URL winning. Only the children holding a changed URL
are read and written again; every other file keeps its bytes (and inode), and the index is
published again with the new children and their lastmods, at one instant.`,
  positionals: true,
  options: [
    { name: 'out', kind: 'text', value: 'DIR', help: 'the set\'s folder (required)' },
    withNote(NAME, 'the set\'s name'),
    PER_INDEX,
    TEXT_OR_JSON,
    QUIET_NO_SUMMARY,
  ],
  notes: 'Time and memory follow the changes and the children they touch, not the size of the set.',
  exit: '0 applied, 1 applied but some lines were rejected or warned about, 2 usage or fatal error (the previous set stays).',
  examples: ['sitemapkit apply changes.jsonl --out public/'],
});

// The coordinator (queue) and the workers name the same Redis and queue.
const REDIS: OptionSpec = { name: 'redis', kind: 'text', value: 'URL', help: 'the queue\'s Redis: redis://[user:password@]host:port[/db] (required)' };
const QUEUE_NAME: OptionSpec = { name: 'queue', kind: 'text', value: 'NAME', help: 'the BullMQ queue (default sitemapkit)' };

export const QUEUE = command({
  name: 'queue',
  summary: 'generate or update a sharded set on BullMQ workers; show the progress of runs',
  usage: `generate FILE|URL...|--source MODULE --redis URL --out DIR --base-url URL
       sitemapkit queue apply CHANGES... --redis URL --out DIR
       sitemapkit queue status --redis URL [--run ID]`,
  intro: `Put a run on a BullMQ queue (Redis 6.2 or later) for "sitemapkit worker" processes: a job per
shard (apply: per touched child), and a parent job that publishes the index once they have all
succeeded. The coordinator waits for the run and exits with its outcome.`,
  positionals: true,
  options: [
    REDIS,
    QUEUE_NAME,
    { name: 'out', kind: 'text', value: 'DIR', help: "the set's folder, at the same path on every worker (required)" },
    withNote(SHARDS, 'one job each (default 16)'),
    { name: 'source', kind: 'text', value: 'MODULE', help: 'a module the workers import; it yields the entries of a part (below)' },
    { name: 'parts', kind: 'count', value: 'N', min: 1, max: 65536, help: 'parts the source is read in, one job each (default: --shards)' },
    { name: 'source-option', kind: 'text', value: 'KEY=VALUE', multiple: true, help: 'passed to the source module as options.KEY (repeatable)' },
    INPUT_FORMAT,
    COLUMNS,
    { name: 'attempts', kind: 'count', value: 'N', min: 1, max: 100, help: 'tries per job before it fails for good, and its run with it (default 3)' },
    { name: 'run', kind: 'text', value: 'ID', help: 'the run to add (default: a new id) or to show (status)' },
    { name: 'no-wait', kind: 'flag', help: 'add the run and exit; follow it with queue status' },
    XSL,
    NO_SCOPE,
    PAGE_BASE_URL,
    ...SET_OUTPUT,
    TEXT_OR_JSON,
    QUIET_NO_SUMMARY,
    ALLOW_PRIVATE,
  ],
  notes: `MODULE: export default async function* (part, { parts, options }) { yield { loc, lastmod } }
(entries as in JSON Lines, or arrays of them); the parts yield each entry once: see docs/scale.md.`,
  exit: `0 published (status: no run failed), 1 published with lines rejected or warned about, 2 usage or
fatal error or a failed run (nothing published), 130 or 143 stopped by SIGINT or SIGTERM.`,
  examples: [
    'sitemapkit queue generate urls.txt --redis redis://q1 --out /mnt/maps --base-url https://a.example',
    'sitemapkit queue generate --source ./db.js --parts 64 --redis redis://q1 --out /mnt/maps ...',
    'sitemapkit queue status --redis redis://q1',
  ],
  details: `generate with files or http(s) URLs: the coordinator reads them (every input format of
"sitemapkit generate"; a URL's by its path's extension; a private address needs --allow-private)
and writes each shard's entries to DIR/.sitemapkit-queue/RUN/, where its job reads them; lines it
cannot place are reported as FILE:LINE: CODE message. With --source, the workers read the source:
first one job per part routes the part's entries to per-shard files, then the parent adds the shard
jobs. The layout is "generate --shards N"'s: the same input gives the same bytes.

A job that fails is tried again (--attempts); a worker that dies has its jobs taken over by another
once their lock expires. A job that fails for good fails its run: the index is not written, a set
published before stays as it was, and the coordinator prints each failed job and its reason (exit 2).
One run at a time per set: a run on a folder that another run on the queue is still writing is
refused (exit 2).

status: each run on the queue (newest first), the state of its parent (waiting, waiting-children
while its jobs run, active, completed, failed), its jobs by state, and the reason of each of the
first 20 failed jobs.`,
});

export const WORKER = command({
  name: 'worker',
  summary: 'run the jobs of queued runs (queue generate, queue apply) until stopped',
  usage: '--redis URL [--concurrency N] [options]',
  intro: `Take jobs from the queue and run them: write a shard, read a part of a source module, rewrite a
child, publish an index. Start as many as you like, on any machines that see the sets' folders at
the same paths as the coordinator. SIGINT or SIGTERM: finish the jobs at hand, then exit; a second
signal releases them at once, for another worker to take.`,
  positionals: false,
  options: [
    REDIS,
    QUEUE_NAME,
    { name: 'concurrency', kind: 'count', value: 'N', min: 1, max: 64, help: 'jobs at once in this process (default 1)' },
    { name: 'lock-duration', kind: 'seconds', value: 'S', min: 1, help: 'a job is taken over by another worker S seconds after this one stops renewing its lock (default 30)' },
    withNote(QUIET, 'no line per job'),
  ],
  notes: 'Standard error: one line per job done or failed.',
  exit: '0 stopped by SIGINT or SIGTERM, 130 or 143 by a second one (the jobs at hand released), 2 usage error or Redis unreachable.',
  examples: ['sitemapkit worker --redis redis://10.0.0.5:6379 --concurrency 2'],
});

export const ROBOTS = command({
  name: 'robots',
  summary: 'add or update the Sitemap: lines of a robots.txt, touching nothing else',
  usage: '--sitemap URL [--sitemap URL]... [--file robots.txt] [options]',
  intro: `Add or update the Sitemap: lines of a robots.txt without touching anything else and without
duplicates: a sitemap listed is not added again, one spelt differently is rewritten in place. The
file is created when missing, replaced atomically, and not written at all when up to date.`,
  positionals: false,
  options: [
    { name: 'sitemap', kind: 'text', value: 'URL', multiple: true, help: 'the full http(s) URL of a sitemap or index (required; repeatable)' },
    { name: 'file', kind: 'text', value: 'PATH', help: 'the robots.txt to edit (default: robots.txt)' },
    { name: 'replace', kind: 'flag', help: 'also remove the Sitemap lines of URLs not given here' },
    { name: 'robots-url', kind: 'text', value: 'URL', help: 'where this robots.txt is served; relative Sitemap lines resolve against it' },
    { name: 'check', kind: 'flag', help: 'write nothing; exit 1 if the file would change (for CI)' },
    withNote(DRY_RUN, 'print the resulting file (with --format json: its "text")'),
    TEXT_OR_JSON,
    QUIET_NO_SUMMARY,
  ],
  notes: `Sitemap lines crawlers skip (no colon, empty, ftp:, a placeholder) are reported as warnings,
one line each on standard error: FILE:LINE: warning CODE message (codes robots/..., docs/rules.md).`,
  exit: `0 done, or with --check already up to date; 1 with --check, the file would change;
2 usage error, or the file cannot be read or written.`,
  examples: [
    'sitemapkit robots --sitemap https://www.example.com/sitemap.xml --file public/robots.txt',
    'sitemapkit robots --sitemap https://example.com/sitemap-index.xml --replace',
    'sitemapkit robots --sitemap https://example.com/a.xml --sitemap https://example.com/b.xml --check',
  ],
  details: `A line that spells a sitemap differently (sitemap:http://EXAMPLE.com:80/s.xml) is rewritten in
place to the normalised URL, and repeated lines for it are removed. Sitemap lines that crawlers skip
(no colon after Sitemap, an empty or ftp: value, a template placeholder) are reported as FILE:LINE:
warning CODE message on standard error (with their code in --format json) and left as they are. New lines go after the last Sitemap line, or at the
end of the file after a blank line. Line ends (LF or CRLF) and a UTF-8 BOM are kept.

--robots-url: a relative Sitemap line (Sitemap: /sitemap.xml) resolves against it, so it matches the
--sitemap it names and is rewritten to the full URL. Default: /robots.txt of the --sitemap URLs'
site when they all share one; otherwise relative lines match nothing.

--format json: every line number names the file it counts in: oldLine (the file as it was), newLine
(the file as written); a removed line has no newLine, an added one no oldLine.

The file is replaced atomically (a temporary file beside it, then a rename) and keeps its
permissions.`,
});

export const INDEXNOW = command({
  name: 'indexnow',
  summary: 'submit the URLs added, changed or removed since the last build to IndexNow',
  usage: '--key KEY [--out DIR | --state FILE] [options]',
  intro: `Submit to IndexNow (Bing, Yandex, Seznam, Naver, Yep…; not Google) the URLs added to the sitemap,
changed, or gone since the last accepted submission, as the build state of "sitemapkit build"
records. Batches of at most 10,000 per host; one is recorded only when accepted (200, 202).`,
  positionals: false,
  unexpectedArgument: 'the output folder is given with --out DIR',
  options: [
    { name: 'key', kind: 'text', value: 'KEY', help: "your IndexNow key: 8 to 128 letters, digits or '-' (required)" },
    KEY_LOCATION,
    WRITE_KEY_FILE,
    ENDPOINT,
    { name: 'out', kind: 'text', value: 'DIR', help: 'the folder "sitemapkit build" wrote to (default: .)' },
    STATE,
    withNote(DRY_RUN, 'print the payloads, one JSON line each (with --format json: each "body")'),
    USER_AGENT,
    RETRIES,
    TEXT_OR_JSON,
    withNote(QUIET, 'no summary, no progress lines'),
  ],
  notes: `Answers: 200 and 202 accepted; 400 bad request; 403 the key file is missing or wrong; 422 URLs not
on the key's host; 429 too many requests (waited for, as Retry-After says, and retried).`,
  exit: '0 submitted (or nothing to submit), 1 some batch was refused or could not be sent, 2 usage or fatal error.',
  examples: [
    'sitemapkit build public --base-url https://www.example.com/',
    'sitemapkit indexnow --key 5f2b8c1d9e7a4b3c --out public --write-key-file',
    'sitemapkit indexnow --key 5f2b8c1d9e7a4b3c --out public --dry-run',
  ],
});

export const DIFF = command({
  name: 'diff',
  summary: 'the URLs added, removed and changed (which fields) between two sitemaps, sets or URLs',
  usage: 'OLD NEW [--format text|jsonl|json] [options]',
  intro: `Compare two versions of a site's sitemaps: the URLs added, removed, and changed (lastmod,
changefreq, priority, images, videos, news, alternates). OLD and NEW are each a sitemap file (plain
or gzipped), a set (its index file, the children read beside it; or a directory: its sitemap.xml)
or a URL (an index's children fetched too). URLs are compared, not files.`,
  positionals: true,
  options: [
    DOCUMENT_MAX_BYTES,
    DOCUMENT_MAX_ENTRIES,
    format(['text', 'jsonl', 'json'], 'text (default), jsonl (one object per URL) or json (counts and the first 1,000 of each)'),
    ...NETWORK,
    VERBOSE_PROBLEMS,
    withNote(QUIET, 'no summary line'),
  ],
  notes: `Output: "- URL" removed (in OLD's order), then "+ URL" added and "~ URL lastmod A \u2192 B, ..."
changed (in NEW's order), then a summary line. Problems of the inputs go to standard error, one per
line: FILE:LINE:COL: severity code message. Memory: a fingerprint table (~30-50 bytes a URL, no URL
kept; changed URLs' old entries go to a temporary file); NEW is read twice (a URL fetched twice).`,
  exit: '0 the same URLs with the same fields, 1 they differ, 2 usage error or an input that cannot be read.',
  examples: [
    'sitemapkit diff old/sitemap.xml public/sitemap.xml',
    'sitemapkit diff snapshot/ https://www.example.com/sitemap_index.xml --format jsonl',
    'sitemapkit diff sitemap-2024.xml.gz sitemap.xml --format json > changes.json',
  ],
  details: `Values are compared as written (a lastmod of 2024-01-01 and one of 2024-01-01T00:00:00Z differ;
a priority is compared as the number read). A URL listed twice in one source counts once, at its
first occurrence.

--format: text, one line per URL, then "N added, N removed, N changed (N URLs in OLD, N URLs in NEW)"
(or "equal (...)"); jsonl, {"op":"removed","loc":…}, {"op":"added","loc":…},
{"op":"changed","loc":…,"lastmod":{"old":…,"new":…}} (a field that was or is absent is null);
json, one object: old, new, equal, oldUrls, newUrls, added, removed, changed (the counts) and
listed (the first 1,000 of each, in the text's order).

How: no URL string is kept. NEW is read into a table of 64-bit fingerprints of each loc and of its
other fields (typed arrays, ~30-50 bytes a URL with the table's free slots: 484 MB peak RSS for
10,000,000 URLs a side, measured by npm run bench:diff); OLD is then read against it (removed URLs
are printed as they come; the old entries of changed candidates, only those, go to a temporary
file); NEW is read again for the added and changed ones, each changed candidate compared field by
field, exactly. Two different URLs with the same fingerprint would be taken for one: the chance is
about n\u00b2/2^65 for n distinct URLs (1 in 90,000 for 2 \u00d7 10^7); a changed one is caught by the
exact comparison, an unchanged, added or removed one is not. A URL source is fetched once per
reading, so NEW's is fetched twice; if it changed in between, the diff stops (exit 2).`,
});

export const REPORT = command({
  name: 'report',
  summary: 'one self-contained HTML page that shows a set: files, problems, freshness, extensions, every URL',
  usage: 'SOURCE... [--out report.html] [--compare PREVIOUS] [--open] [options]',
  intro: `Write one HTML file that shows a sitemap set: a summary and the headroom to the limits, the
set as a tree (sizes, lastmod, HTTP answers), problems by code with the Search Console wording,
URLs per directory, freshness, extensions (images, videos, news, hreflang), duplicates, and a
searchable table of every URL. SOURCE is a sitemap file (gzipped too), a set (its index file, or a
directory: its sitemap.xml), a sitemap URL (an index's children fetched too), or a site (path /)
or robots.txt URL: the sitemaps \`discover\` finds there (robots.txt's Sitemap lines, else the
well-known paths; none: exit 2). The page makes no request (its CSP forbids them), even from file://`,
  positionals: true,
  options: [
    { name: 'out', kind: 'text', value: 'FILE', help: 'the report file (default report.html); written whole or not at all' },
    { name: 'compare', kind: 'text', value: 'PREVIOUS', help: 'a previous version (file, set or sitemap URL): URLs added, removed and changed, per file' },
    { name: 'open', kind: 'flag', help: 'open the report when written ($BROWSER, else xdg-open or open)' },
    RULE,
    CONFIG,
    NOW,
    VALIDATION_BASE_URL,
    LIMITS,
    DOCUMENT_MAX_BYTES,
    DOCUMENT_MAX_ENTRIES,
    ...NETWORK,
    withNote(QUIET, 'no progress, no summary line'),
  ],
  notes: `Every document is validated as \`sitemapkit validate\` does it (its settings: --rule, --config,
--base-url, --limits), in the same reading that fills the report; a child an index lists that
cannot be read is shown as a problem. Memory: counts and the first 20 examples of each kind, a
fingerprint table of the URLs (no URL kept); the URL rows go gzipped to a temporary file beside the
report, then into the page.`,
  exit: '0 written, no errors in the set; 1 written, the set has errors; 2 usage error, a source that cannot be read, a site without a sitemap, or the report could not be written.',
  examples: [
    'sitemapkit report public/ --open',
    'sitemapkit report https://www.example.com/ --out site.html',
    'sitemapkit report public/sitemap.xml --compare snapshot/sitemap.xml',
  ],
});

/** Every command, in the order of the top-level help. */
export const COMMAND_SPECS: readonly CommandSpec[] = [GENERATE, READ, VALIDATE, DISCOVER, BUILD, SERVE, ROBOTS, INDEXNOW, DIFF, REPORT, INDEX, APPLY, QUEUE, WORKER];
