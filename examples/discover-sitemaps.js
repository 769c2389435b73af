// Find a site's sitemaps and count their URLs: node examples/discover-sitemaps.js [SITE]
import { discoverSitemaps } from 'sitemapkit';

const site = process.argv[2] ?? 'https://www.example.com/';
// Addresses on this machine are refused unless allowed: this lets the example read a local server.
for await (const event of discoverSitemaps(site, { allowAddresses: ['127.0.0.1/32'] })) {
  if (event.type === 'robots') console.log(`${event.robots.url}: ${event.robots.status}`);
  if (event.type === 'sitemap' && event.sitemap.outcome !== 'absent') {
    console.log(`${event.sitemap.url}: ${event.sitemap.format}, ${event.sitemap.urls} URLs (found by ${event.sitemap.via})`);
  }
  if (event.type === 'end') console.log(`${event.tree.totals.urls} URLs in ${event.tree.totals.documents} document(s)`);
}
