import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyState, loadState, saveState, type BuildState } from '../../../src/node/build/state-store.js';
import { tempDir } from '../../helpers/tmp.js';

function sampleState(pages: number, tag: string): BuildState {
  const state = emptyState();
  state.baseUrl = 'https://www.example.com/';
  state.indexName = 'sitemap.xml';
  for (let i = 0; i < pages; i++) state.pages.set(`https://www.example.com/p/${i}`, { hash: `${tag}-${i}`, lastmod: '2026-01-02T03:04:05Z', listed: i % 7 !== 0 });
  state.pages.set('https://www.example.com/no-lastmod', { hash: 'h', listed: true });
  state.files.set('sitemap-p.xml.gz', { hash: 'f', lastmod: '2026-01-02T03:04:05Z', urls: pages });
  state.buckets.set('sitemap-p', 4);
  state.announced.set('https://www.example.com/p/1', `${tag}-1`);
  state.lastSubmission = '2026-01-03T00:00:00.000Z';
  return state;
}

describe('build state store', () => {
  it('reads back what it wrote', async () => {
    const path = join(tempDir(), 'deep', 'state');
    const state = sampleState(100, 'a');
    await saveState(path, state);
    assert.deepEqual(await loadState(path), state);
  });

  it('is empty when there is no file, and refuses one that is not its own', async () => {
    const dir = tempDir();
    assert.deepEqual(await loadState(join(dir, 'none')), emptyState());
    writeFileSync(join(dir, 'other'), '{"format":"something-else"}');
    await assert.rejects(loadState(join(dir, 'other')), /is not a sitemapkit-state file/);
    writeFileSync(join(dir, 'future'), '{"format":"sitemapkit-state","version":99}');
    await assert.rejects(loadState(join(dir, 'future')), /has version 99; this sitemapkit reads version 1/);
  });

  it('a process killed while saving leaves the old state or the new one, never a broken file', async () => {
    const dir = tempDir();
    const path = join(dir, 'state');
    await saveState(path, sampleState(20_000, 'old'));
    // A child saves large states in a loop; it is killed with SIGKILL mid-way, several times.
    const script = fileURLToPath(new URL('./save-state-loop.ts', import.meta.url));
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Wait until it has started saving at least once, then kill it at an arbitrary point.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20 + round * 37));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const state = await loadState(path);
      const tag = state.pages.get('https://www.example.com/p/0')?.hash;
      assert.ok(tag === 'old-0' || /^new\d+-0$/.test(tag ?? ''), `round ${round}: ${tag}`);
      assert.equal(state.pages.size, 20_001);
    }
    // Temporary files of the killed writers may remain next to it; they are never read.
    assert.ok(readdirSync(dir).includes('state'));
  });
});
