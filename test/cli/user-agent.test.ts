// The User-Agent of the commands that fetch (discover, validate URL, read URL, indexnow, build --indexnow-key):
// by default the product and its version, naming no web address; --user-agent sets it, in each of them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';
import { startSiteServer, urlset, type SiteServer } from '../helpers/site-server.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const BOT = 'ExampleBot/2.0 (+https://example.org/bot)';
const BASE = 'https://www.example.com/';
const KEY = '5f2b8c1d9e7a4b3c';

describe('--user-agent', () => {
  let server: SiteServer;
  before(async () => {
    server = await startSiteServer({
      '/indexnow': async (req: IncomingMessage, res) => {
        for await (const chunk of req) void chunk;
        res.writeHead(200).end();
      },
    });
    server.route('/s.xml', { body: urlset([server.url('/a'), server.url('/b')]) });
  });
  after(() => server.close());

  /** The User-Agent of the requests made while `action` ran (all the same, and at least one). */
  async function userAgentOf(action: () => Promise<{ code: number; stderr: string }>): Promise<string> {
    const from = server.requests.length;
    const result = await action();
    assert.equal(result.code, 0, result.stderr);
    const agents = new Set(server.requests.slice(from).map((r) => r.headers['user-agent']));
    assert.equal(agents.size, 1, [...agents].join(' | '));
    return [...agents][0] as string;
  }

  /** A built site (its build state is what indexnow submits from). */
  async function builtSite(extra: string[] = []): Promise<string> {
    const dir = tempDir('sitemapkit-ua-');
    writeSite(dir, { 'index.html': page({ title: 'Home' }), 'a.html': page({ title: 'A' }) });
    const built = await runCli(['build', dir, '--base-url', BASE, '--initial-lastmod', 'none', ...extra], { cwd: dir });
    assert.equal(built.code, 0, built.stderr);
    return dir;
  }

  const cwd = tempDir('sitemapkit-ua-cwd-');
  const discover = (extra: string[]) => runCli(['discover', server.url('/s.xml'), '--format', 'urls', '--allow-private', '--retries', '0', ...extra], { cwd });
  const validate = (extra: string[]) => runCli(['validate', server.url('/s.xml'), '--allow-private', ...extra], { cwd });
  const read = (extra: string[]) => runCli(['read', server.url('/s.xml'), '--allow-private', ...extra], { cwd });
  const indexnow = async (extra: string[]) => {
    const dir = await builtSite();
    return runCli(['indexnow', '--key', KEY, '--out', dir, '--endpoint', server.url('/indexnow'), ...extra], { cwd: dir });
  };
  const buildAndSubmit = async (extra: string[]) => {
    await builtSite(['--indexnow-key', KEY, '--endpoint', server.url('/indexnow'), ...extra]);
    return { code: 0, stderr: '' };
  };
  const commands = { discover, validate, read, indexnow, build: buildAndSubmit };

  it('by default is sitemapkit/VERSION, with no web address, in every command that fetches', async () => {
    for (const [name, command] of Object.entries(commands)) {
      assert.equal(await userAgentOf(() => command([])), `sitemapkit/${VERSION}`, name);
    }
  });

  it('is what --user-agent says, in every command that fetches', async () => {
    for (const [name, command] of Object.entries(commands)) {
      assert.equal(await userAgentOf(() => command(['--user-agent', BOT])), BOT, name);
    }
  });

  it('build refuses --user-agent without --indexnow-key (it fetches nothing else)', async () => {
    const dir = tempDir('sitemapkit-ua-');
    writeSite(dir, { 'index.html': page({ title: 'Home' }) });
    const r = await runCli(['build', dir, '--base-url', BASE, '--user-agent', BOT], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--user-agent go with --indexnow-key/);
  });

  it('is documented in the same words by every command that fetches', async () => {
    const lines = new Map<string, string>();
    // build too (issue 23: one declaration of --user-agent, no "as for indexnow").
    for (const name of ['discover', 'validate', 'read', 'indexnow', 'build']) {
      const help = (await runCli([name, '--help'], { cwd })).stdout;
      const line = help.split('\n').find((l) => l.trimStart().startsWith('--user-agent'));
      assert.ok(line !== undefined, `${name} --help lists --user-agent`);
      lines.set(name, line.trim().replace(/\s+/g, ' '));
    }
    assert.deepEqual(new Set(lines.values()), new Set(['--user-agent UA User-Agent header to send (default sitemapkit/VERSION)']), [...lines.values()].join('\n'));
  });
});
