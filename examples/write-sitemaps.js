// Write the sitemap set of three pages into a folder (default out/): node examples/write-sitemaps.js [DIR]
import { writeSitemaps } from 'sitemapkit';

const pages = [
  { loc: '/', lastmod: '2024-06-01', changefreq: 'daily', priority: 1 },
  { loc: '/about', lastmod: new Date('2023-11-20T09:30:00Z') },
  { loc: 'https://www.example.com/blog/hello', images: [{ loc: 'https://www.example.com/img/hello.jpg' }] },
];

const summary = await writeSitemaps(pages, {
  outDir: process.argv[2] ?? 'out',
  baseUrl: 'https://www.example.com/', // relative locs resolve against it; URLs outside it are refused
});
console.log(`${summary.urls} URLs in ${summary.sitemaps.length} sitemap; submit ${summary.entryFile?.loc}`);
