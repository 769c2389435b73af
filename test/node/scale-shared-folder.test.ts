// A set's folder shared by several machines (the workers of a sharded set): a run removes what runs
// of its own machine left when their process is gone, never another machine's temporary folder
// (whose process it cannot see).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { tempDir } from '../helpers/tmp.js';
import { writeShard } from '../helpers/write-shard.js';

test('a shard writer removes its own machine\'s stale temporary folders, not another machine\'s', async () => {
  const out = tempDir();
  const here = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  const elsewhere = here === 'deadbeef' ? 'feedface' : 'deadbeef';
  // A process id above any pid_max: no such process here.
  const gone = 4_194_305;
  const names = [`.sitemapkit-tmp-${gone}-${elsewhere}-a1b2c3`, `.sitemapkit-tmp-${gone}-${here}-a1b2c3`, `.sitemapkit-tmp-${gone}-a1b2c3`];
  for (const name of names) mkdirSync(join(out, name));
  await writeShard({ entries: [{ loc: 'https://www.example.com/a/1' }], shard: 0, shards: 1, outDir: out, baseUrl: 'https://www.example.com/' });
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('.')), [names[0]]);
});

test("writeFileAtomic's temporaries left by a killed process: this machine's are removed, another machine's (whose process cannot be seen) are kept", async () => {
  const out = tempDir();
  const staged = new URL('../../src/node/staged-output.ts', import.meta.url).href;
  // One process, staged-output loaded twice (as on another machine, as here), killed at its second rename: two temporaries left.
  const script = `
    import os from 'node:os';
    import fsp from 'node:fs/promises';
    import { syncBuiltinESMExports } from 'node:module';
    const real = os.hostname;
    let reached;
    const first = new Promise((resolve) => (reached = resolve));
    let renames = 0;
    fsp.rename = () => (++renames === 1 ? (reached(), new Promise(() => {})) : process.kill(process.pid, 'SIGKILL'));
    os.hostname = () => 'another-machine';
    syncBuiltinESMExports();
    const elsewhere = await import('${staged}?elsewhere');
    os.hostname = real;
    syncBuiltinESMExports();
    const here = await import('${staged}?here');
    void elsewhere.writeFileAtomic(${JSON.stringify(join(out, 'sitemap.xml'))}, 'elsewhere');
    await first;
    await here.writeFileAtomic(${JSON.stringify(join(out, 'sitemap-here.xml'))}, 'here');`;
  const killed = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  const left = readdirSync(out).sort();
  assert.deepEqual(left.map((f) => f.slice(0, f.indexOf('.tmp-'))), ['.sitemap-here.xml', '.sitemap.xml']);
  // The next run on this machine sweeps the set's folder.
  await writeShard({ entries: [{ loc: 'https://www.example.com/a/1' }], shard: 0, shards: 1, outDir: out, baseUrl: 'https://www.example.com/' });
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('.')), [left[1]]);
});
