import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';
import { startSiteServer } from '../helpers/site-server.js';
import { emptyState, loadState, saveState } from '../../src/node/build/state-store.js';

const BASE = 'https://www.example.com/';
const KEY = '5f2b8c1d9e7a4b3c';

interface Received {
  host: string;
  key: string;
  keyLocation?: string;
  urlList: string[];
}

/** A fake IndexNow endpoint answering with the statuses in `script` (the last one repeats). */
async function fakeEndpoint(script: { status: number; headers?: Record<string, string> }[]) {
  const bodies: Received[] = [];
  let calls = 0;
  const server = await startSiteServer({
    '/indexnow': async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received);
      const answer = script[Math.min(calls++, script.length - 1)] as { status: number; headers?: Record<string, string> };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.status >= 400 ? '{"message":"nope"}' : '');
    },
  });
  after(() => server.close());
  return { server, bodies, endpoint: server.url('/indexnow') };
}

function site(): string {
  const dir = tempDir('sitemapkit-indexnow-');
  writeSite(dir, {
    'index.html': page({ title: 'Home' }),
    'a.html': page({ title: 'A' }),
    'b.html': page({ title: 'B' }),
    'blog/c.html': page({ title: 'C' }),
    'hidden.html': page({ title: 'Hidden', head: '<meta name="robots" content="noindex">' }),
  });
  return dir;
}

const build = (dir: string, extra: string[] = []) => runCli(['build', dir, '--base-url', BASE, '--initial-lastmod', 'none', ...extra], { cwd: dir });
const indexnow = (dir: string, endpoint: string, extra: string[] = []) => runCli(['indexnow', '--key', KEY, '--out', dir, '--endpoint', endpoint, ...extra], { cwd: dir });

describe('sitemapkit indexnow', () => {
  it('submits every listed URL once, then only what was added, changed or removed; records only what was accepted', async () => {
    const dir = site();
    const fake = await fakeEndpoint([{ status: 200 }]);
    assert.equal((await build(dir)).code, 0);

    const first = await indexnow(dir, fake.endpoint, ['--write-key-file']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(fake.bodies.length, 1);
    assert.deepEqual(fake.bodies[0], {
      host: 'www.example.com',
      key: KEY,
      urlList: [`${BASE}a.html`, `${BASE}b.html`, `${BASE}blog/c.html`, `${BASE}`], // in page-path order
    });
    assert.equal(readFileSync(join(dir, `${KEY}.txt`), 'utf8'), KEY);

    // Nothing changed: nothing is sent.
    const idle = await indexnow(dir, fake.endpoint);
    assert.equal(idle.code, 0);
    assert.match(idle.stderr, /nothing to submit/);
    assert.equal(fake.bodies.length, 1);

    // One page edited, one added, one deleted, one turned noindex; a build-noise-only change is not news.
    writeSite(dir, {
      'a.html': page({ title: 'A', body: '<p>Edited</p>' }),
      'blog/new.html': page({ title: 'New' }),
      'b.html': page({ title: 'B', head: '<meta name="robots" content="noindex">' }),
      'index.html': page({ title: 'Home', buildId: 'another-build-id' }),
    });
    rmSync(join(dir, 'blog', 'c.html'));
    assert.equal((await build(dir)).code, 0);

    const dry = await indexnow(dir, fake.endpoint, ['--dry-run']);
    assert.equal(dry.code, 0);
    assert.equal(fake.bodies.length, 1, 'a dry run sends nothing');
    const payloads = dry.stdout.trim().split('\n').map((line) => JSON.parse(line) as Received);
    assert.deepEqual(payloads, [{ host: 'www.example.com', key: KEY, urlList: [`${BASE}a.html`, `${BASE}blog/new.html`, `${BASE}b.html`, `${BASE}blog/c.html`] }]);
    assert.match(dry.stderr, /4 URLs \(1 added, 1 updated, 2 removed\)/);

    const second = await indexnow(dir, fake.endpoint, ['--json']);
    assert.equal(second.code, 0);
    assert.deepEqual(fake.bodies[1]?.urlList, payloads[0]?.urlList);
    const summary = JSON.parse(second.stdout) as { recorded: number; ok: boolean };
    assert.equal(summary.recorded, 4);
    assert.equal((await indexnow(dir, fake.endpoint)).stderr.includes('nothing to submit'), true);
  });

  for (const [status, pattern] of [
    [400, /indexnow\/bad-request/],
    [403, /: error indexnow\/forbidden .*\(.*5f2b8c1d9e7a4b3c\.txt.*--write-key-file.*\)$/m],
    [422, /indexnow\/unprocessable/],
  ] as const) {
    it(`explains ${status}, exits 1 and records nothing (the next run submits the same URLs)`, async () => {
      const dir = site();
      const fake = await fakeEndpoint([{ status }, { status: 202 }]);
      await build(dir);
      const refused = await indexnow(dir, fake.endpoint);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, pattern);
      assert.match(refused.stderr, /the endpoint said: \{"message":"nope"\}/);
      assert.equal(fake.bodies.length, 1, 'not retried');
      const retried = await indexnow(dir, fake.endpoint);
      assert.equal(retried.code, 0, retried.stderr);
      assert.deepEqual(fake.bodies[1]?.urlList, fake.bodies[0]?.urlList);
      assert.match(retried.stderr, /key|accepted|received/i);
    });
  }

  it('saves the state after each accepted payload: stopped at the third of three, the first two are not sent again', async () => {
    const dir = tempDir('sitemapkit-indexnow-');
    const statePath = join(dir, 'state');
    const state = emptyState();
    state.baseUrl = BASE;
    for (let i = 0; i < 25_000; i++) state.pages.set(`${BASE}p/${i}`, { hash: 'h', listed: true });
    await saveState(statePath, state);
    const recordedWhenSent: number[] = [];
    const bodies: Received[] = [];
    const server = await startSiteServer({
      '/indexnow': async (req: IncomingMessage, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received);
        // What a run killed now would leave on disk.
        recordedWhenSent.push((await loadState(statePath)).announced.size);
        res.writeHead(bodies.length === 3 ? 503 : 200).end();
      },
    });
    after(() => server.close());
    const submit = () => runCli(['indexnow', '--key', KEY, '--state', statePath, '--endpoint', server.url('/indexnow'), '--retries', '0'], { cwd: dir });
    assert.equal((await submit()).code, 1);
    assert.deepEqual(recordedWhenSent, [0, 10_000, 20_000]);
    assert.equal((await submit()).code, 0);
    assert.equal(bodies.length, 4);
    assert.deepEqual(bodies[3]?.urlList, bodies[2]?.urlList);
  });

  it('backs off on 429 as Retry-After says and submits', async () => {
    const dir = site();
    const fake = await fakeEndpoint([{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    await build(dir);
    const started = Date.now();
    const result = await indexnow(dir, fake.endpoint);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.bodies.length, 2);
    assert.ok(Date.now() - started >= 950, 'waited about a second');
  });

  it('build --indexnow-key submits right after the build', async () => {
    const dir = site();
    const fake = await fakeEndpoint([{ status: 202 }]);
    const result = await build(dir, ['--indexnow-key', KEY, '--endpoint', fake.endpoint, '--write-key-file']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.bodies[0]?.urlList.length, 4);
    assert.ok(existsSync(join(dir, `${KEY}.txt`)));
    // The key file is not a page, and the next build does not list it.
    assert.equal((await build(dir, ['--indexnow-key', KEY, '--endpoint', fake.endpoint])).code, 0);
    assert.equal(fake.bodies.length, 1, 'nothing new to submit');
  });

  it('build --out a folder below the pages writes the key file beside the pages, where the engine fetches it', async () => {
    const dir = site();
    const fake = await fakeEndpoint([{ status: 200 }]);
    const result = await build(dir, ['--out', join(dir, 'maps'), '--indexnow-key', KEY, '--endpoint', fake.endpoint, '--write-key-file']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.bodies[0]?.keyLocation, undefined, 'the engine fetches https://www.example.com/KEY.txt');
    assert.ok(existsSync(join(dir, `${KEY}.txt`)));
    assert.ok(!existsSync(join(dir, 'maps', `${KEY}.txt`)));
  });

  it('a --key-location in a folder: the URLs outside it, which that key file does not authorise, stop the run before anything is sent', async () => {
    const dir = site();
    const fake = await fakeEndpoint([{ status: 200 }]);
    assert.equal((await build(dir)).code, 0);
    for (const extra of [['--dry-run'], []]) {
      const result = await indexnow(dir, fake.endpoint, ['--key-location', `${BASE}blog/${KEY}.txt`, ...extra]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /3 of the 4 URLs on www\.example\.com are outside \/blog\/, the folder of the key file/);
    }
    assert.equal(fake.bodies.length, 0);
    // On another host, the key file would apply to none of the URLs: refused too, not silently left out.
    const elsewhere = await indexnow(dir, fake.endpoint, ['--key-location', `https://cdn.example.net/${KEY}.txt`]);
    assert.equal(elsewhere.code, 2, elsewhere.stderr);
    assert.match(elsewhere.stderr, /key file https:\/\/cdn\.example\.net\/\w+\.txt \(keyLocation\) is on cdn\.example\.net, and no URL is \(e\.g\. https:\/\/www\.example\.com\//);
    assert.equal(fake.bodies.length, 0);
    const root = await indexnow(dir, fake.endpoint, ['--key-location', `${BASE}key-${KEY}.txt`]);
    assert.equal(root.code, 0, root.stderr);
    assert.equal(fake.bodies[0]?.urlList.length, 4);
  });

  it('--write-key-file with a --key-location writes the key file where that URL is served, or refuses when --out is not served there', async () => {
    const fake = await fakeEndpoint([{ status: 200 }]);
    const stated = async (baseUrl: string): Promise<string> => {
      const dir = tempDir('sitemapkit-indexnow-');
      const state = emptyState();
      state.baseUrl = baseUrl;
      state.pages.set(`${baseUrl}a`, { hash: 'h', listed: true });
      await saveState(join(dir, 'state'), state);
      return dir;
    };
    const dir = await stated(BASE);
    const named = await indexnow(dir, fake.endpoint, ['--state', 'state', '--write-key-file', '--key-location', `${BASE}indexnow-key.txt`]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(fake.bodies[0]?.keyLocation, `${BASE}indexnow-key.txt`);
    assert.equal(readFileSync(join(dir, 'indexnow-key.txt'), 'utf8'), KEY);
    assert.ok(!existsSync(join(dir, `${KEY}.txt`)), 'no key file where the engine does not look');
    assert.match(named.stderr, /wrote the key file .*indexnow-key\.txt; publish it with the site, at https:\/\/www\.example\.com\/indexnow-key\.txt/);

    // A site served at /docs/ cannot serve the host's /KEY.txt from its folder: refused before anything is written or sent.
    const docs = await stated(`${BASE}docs/`);
    const outside = await indexnow(docs, fake.endpoint, ['--state', 'state', '--write-key-file', '--key-location', `${BASE}${KEY}.txt`]);
    assert.equal(outside.code, 2, outside.stderr);
    assert.match(outside.stderr, /--write-key-file writes into .*, served at https:\/\/www\.example\.com\/docs\/; --key-location https:\/\/www\.example\.com\/5f2b8c1d9e7a4b3c\.txt is not a file there/);
    assert.ok(!existsSync(join(docs, `${KEY}.txt`)));
    assert.equal(fake.bodies.length, 1);
  });

  it('needs a build first, and a valid key', async () => {
    const dir = tempDir('sitemapkit-indexnow-');
    const none = await runCli(['indexnow', '--key', KEY, '--out', dir], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no build state at .*: run "sitemapkit build" first/);
    const bad = await runCli(['indexnow', '--key', 'bad key!', '--out', dir], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--key/);
    // build --dry-run is a dry run of the whole build (issue 23): it sends nothing, and --json is its summary.
    writeSite(dir, { 'index.html': page({ title: 'Home' }) });
    const dry = await runCli(['build', dir, '--base-url', BASE, '--indexnow-key', KEY, '--dry-run', '--json'], { cwd: dir });
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(JSON.parse(dry.stdout).dryRun, true);
    assert.deepEqual(readdirSync(dir), ['index.html']);
  });
});
