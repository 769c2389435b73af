import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SitemapError } from '../../../src/core/errors.js';
import { FileBatch } from '../../../src/node/build/file-batch.js';
import { tempDir } from '../../helpers/tmp.js';

/** A directory holding a.xml, b.xml and sitemap.xml with `old` content. */
function oldSet(): string {
  const dir = tempDir();
  for (const name of ['a.xml', 'b.xml', 'sitemap.xml']) writeFileSync(join(dir, name), `old ${name}`);
  return dir;
}

const contents = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('FileBatch: files replaced together', () => {
  it('touches no target while staging; commit replaces them all and leaves no temporary file', async () => {
    const dir = oldSet();
    const batch = new FileBatch();
    await batch.stage(join(dir, 'a.xml'), 'new a');
    await batch.stage(join(dir, 'b.xml'), Buffer.from('new b'));
    await batch.stage(join(dir, 'sitemap.xml'), 'new index');
    assert.equal(batch.size, 3);
    // Staged: the targets still hold the old bytes (the temporaries are hidden dot files beside them).
    for (const name of ['a.xml', 'b.xml', 'sitemap.xml']) assert.equal(readFileSync(join(dir, name), 'utf8'), `old ${name}`);
    await batch.commit();
    assert.deepEqual(contents(dir), { 'a.xml': 'new a', 'b.xml': 'new b', 'sitemap.xml': 'new index' });
    await batch.discard(); // nothing left to remove
    assert.deepEqual(contents(dir), { 'a.xml': 'new a', 'b.xml': 'new b', 'sitemap.xml': 'new index' });
  });

  it('a failure while staging, then discard: every target as it was, no temporary file left', async () => {
    const dir = oldSet();
    writeFileSync(join(dir, 'blocker'), 'a file where a directory should be');
    const batch = new FileBatch();
    await batch.stage(join(dir, 'a.xml'), 'new a');
    await batch.stage(join(dir, 'b.xml'), 'new b');
    await assert.rejects(
      batch.stage(join(dir, 'blocker', 'c.xml'), 'new c'),
      (error: unknown) => error instanceof SitemapError && error.code === 'ERR_SITEMAP_WRITE' && error.message.includes('c.xml'),
    );
    await batch.discard();
    assert.deepEqual(contents(dir), { 'a.xml': 'old a.xml', 'b.xml': 'old b.xml', blocker: 'a file where a directory should be', 'sitemap.xml': 'old sitemap.xml' });
  });

  it('is used once: staging after a commit or a discard is a misuse', async () => {
    const dir = tempDir();
    for (const end of ['commit', 'discard'] as const) {
      const batch = new FileBatch();
      await batch.stage(join(dir, `${end}.xml`), end);
      await batch[end]();
      await assert.rejects(batch.stage(join(dir, 'late.xml'), 'late'), (error: unknown) => error instanceof SitemapError && error.code === 'ERR_SITEMAP_API');
    }
    assert.deepEqual(contents(dir), { 'commit.xml': 'commit' });
  });
});

describe('FileBatch.removeStale: what a killed run left', () => {
  it('removes the temporary files of processes that no longer run, for the targets claimed, and nothing else', async () => {
    const dir = oldSet();
    // A process id that is certainly gone: a child that has exited.
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = `.a.xml.tmp-${gone}-m0abc-0`;
    const live = `.b.xml.tmp-${process.pid}-m0abc-1`;
    const other = `.notes.txt.tmp-${gone}-m0abc-0`;
    for (const name of [stale, live, other, '.hidden']) writeFileSync(join(dir, name), 'x');
    const removed = await FileBatch.removeStale(dir, (target) => target.endsWith('.xml'));
    assert.deepEqual(removed, [stale]);
    assert.deepEqual(readdirSync(dir).sort(), ['.b.xml.tmp-' + process.pid + '-m0abc-1', '.hidden', other, 'a.xml', 'b.xml', 'sitemap.xml'].sort());
    assert.deepEqual(await FileBatch.removeStale(join(dir, 'missing'), () => true), []);
  });
});
