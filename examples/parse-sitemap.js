// Print the pages of a sitemap, then its problems: node examples/parse-sitemap.js [FILE]
import { parseSitemap } from 'sitemapkit';

const reading = parseSitemap(process.argv[2] ?? 'examples/problems/sitemap.xml'); // a path, bytes or a stream; gzipped or not
for await (const item of reading) {
  if (item.kind === 'url') console.log(`line ${item.line}: ${item.entry.loc}`);
}
const { format, urls, errors, warnings, diagnostics } = await reading.summary();
for (const problem of diagnostics) console.log(`${problem.line}:${problem.column} ${problem.severity} ${problem.code}`);
console.log(`${format}: ${urls} URLs, ${errors} errors, ${warnings} warnings`);
