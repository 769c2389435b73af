// The same in an Express app, which answers every other path: node examples/serve-express.js
import express from 'express';
import { createSitemapHandler, openDirectorySource, toNodeListener } from 'sitemapkit';

const app = express();
app.use(toNodeListener(createSitemapHandler({ source: await openDirectorySource({ dir: 'out' }) })));
app.get('/', (request, response) => response.send('Home'));
const server = app.listen(process.env.PORT ?? 8080, '127.0.0.1');
server.on('listening', () => console.log(`http://127.0.0.1:${server.address().port}/sitemap.xml`));
