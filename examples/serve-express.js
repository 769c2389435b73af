// The same in an Express app, which answers the other paths: node examples/serve-express.js
import express from 'express';
import { createSitemapHandler, openDirectorySource, toNodeListener } from 'sitemapkit';

const handler = createSitemapHandler({ source: await openDirectorySource({ dir: 'out' }) });
express().use(toNodeListener(handler)).get('/', (request, response) => response.send('Home')).listen(process.env.PORT ?? 8080);
