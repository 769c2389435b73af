// Writes docs/cli.md from the command declarations (built into dist/ first: npm run docs:cli).
import { writeFileSync } from 'node:fs';
import { cliReference } from '../dist/cli/cli-docs.js';

writeFileSync(new URL('../docs/cli.md', import.meta.url), cliReference());
console.log('docs/cli.md written');
