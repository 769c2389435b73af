// Serve the set that `npm start` wrote into out/, with node:http: node examples/serve-node-http.js
import { createServer } from 'node:http';
import { createSitemapHandler, openDirectorySource, toNodeListener } from 'sitemapkit';

const handler = createSitemapHandler({ source: await openDirectorySource({ dir: 'out' }) });
const server = createServer(toNodeListener(handler)).listen(process.env.PORT ?? 8080, '127.0.0.1');
server.on('listening', () => console.log(`http://127.0.0.1:${server.address().port}/sitemap.xml`));
