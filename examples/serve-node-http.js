// The set in out/ over node:http: node examples/serve-node-http.js
import { createServer } from 'node:http';
import { createSitemapHandler, openDirectorySource, toNodeListener } from 'sitemapkit';

const handler = createSitemapHandler({ source: await openDirectorySource({ dir: 'out' }) });
createServer(toNodeListener(handler)).listen(process.env.PORT ?? 8080);
