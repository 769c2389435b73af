// `require('sitemapkit/core')` where require(esm) is not available (package.json "exports", "require" condition).
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry: require() is what it is for */
import requireEsm = require('./require-esm.cjs');

export = requireEsm(() => require('../lib/core.js'), 'sitemapkit/core');
