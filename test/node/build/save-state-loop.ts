// Child process of state-store.test.ts: saves a large state over and over until killed.

import { emptyState, saveState } from '../../../src/node/build/state-store.js';

const path = process.argv[2] as string;
for (let round = 0; ; round++) {
  const state = emptyState();
  state.baseUrl = 'https://www.example.com/';
  for (let i = 0; i < 20_000; i++) state.pages.set(`https://www.example.com/p/${i}`, { hash: `new${round}-${i}`, lastmod: '2026-01-02T03:04:05Z', listed: true });
  state.pages.set('https://www.example.com/no-lastmod', { hash: 'h', listed: true });
  process.stdout.write('.');
  await saveState(path, state);
}
