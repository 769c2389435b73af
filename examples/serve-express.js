// In Express, beside the app's routes: node examples/serve-express.js
import express from 'express';
import { createSitemapHandler, openDirectorySource, toNodeListener } from 'sitemapkit';

const handler = createSitemapHandler({ source: await openDirectorySource({ dir: 'out' }) });
express().use(toNodeListener(handler)).get('/', (req, res) => res.send('Home')).listen(process.env.PORT ?? 8080);
