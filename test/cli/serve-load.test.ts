// "Safe under load" (issue 25): 64 connections fetch the index and its children from `sitemapkit serve`
// while a new set is committed 10 times. Every answer must be a complete, valid document of one set,
// and every child an index names must be fetchable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Agent, get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { readXmlSitemapText } from '../../src/core/read/xml-reader.js';
import { tempDir } from '../helpers/tmp.js';
import { BASE, writeSet } from '../helpers/serve.js';
import { startServe } from '../helpers/serve-process.js';
import { xmllint } from '../helpers/xmllint.js';

const CONNECTIONS = 64;
const COMMITS = 10;

interface Fetched {
  status: number;
  xml: string;
}

function fetchXml(agent: Agent, port: number, path: string, gzip: boolean): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent, headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        let body = Buffer.concat(chunks);
        if (response.statusCode === 200 && (response.headers['content-encoding'] === 'gzip' || path.endsWith('.gz'))) body = gunzipSync(body);
        resolve({ status: response.statusCode ?? 0, xml: body.toString('utf8') });
      });
    });
    request.on('error', reject);
  });
}

/** The one tag of a document's URLs (`…/s3/7` → `s3`), or a failure when they mix sets. */
function tagOf(xml: string): string {
  const reading = readXmlSitemapText(xml);
  assert.equal(reading.format, 'urlset');
  assert.deepEqual(reading.diagnostics.filter((d) => d.severity === 'error'), []);
  const tags = new Set(reading.urls.map((entry) => entry.loc.slice(BASE.length).split('/')[0]));
  assert.equal(tags.size, 1, [...tags].join());
  assert.equal(reading.urls.length, 10);
  return [...tags][0] as string;
}

test(`${CONNECTIONS} connections fetching while a new set is committed ${COMMITS} times: whole documents of one set, every named child fetchable`, async (t) => {
  const dir = tempDir();
  await writeSet(dir, 's0');
  const serve = await startServe(dir, ['--log', 'none']);
  t.after(() => serve.stop('SIGKILL'));
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  t.after(() => agent.destroy());

  let committing = true;
  const documents = new Map<string, string>();
  const indexTags = new Set<string>();
  let requests = 0;
  const client = async (id: number): Promise<void> => {
    for (let round = 0; committing || round === 0; round++) {
      const index = await fetchXml(agent, serve.port, '/sitemap.xml', (id + round) % 2 === 0);
      requests++;
      assert.equal(index.status, 200);
      const reading = readXmlSitemapText(index.xml);
      assert.equal(reading.format, 'sitemapindex');
      assert.ok(index.xml.endsWith('</sitemapindex>\n'));
      assert.equal(reading.sitemaps.length, 3);
      documents.set(createHash('sha256').update(index.xml).digest('hex'), index.xml);
      const tags = new Set<string>();
      for (const [i, ref] of reading.sitemaps.entries()) {
        const name = ref.loc.slice(BASE.length);
        // The child as it is (.xml.gz), or as .xml with or without gzip.
        const path = ['/' + name, '/' + name.replace(/\.gz$/, '')][(id + i) % 2] as string;
        const child = await fetchXml(agent, serve.port, path, i % 3 !== 0);
        requests++;
        assert.equal(child.status, 200, `${path} named by an index of set ${[...tags].join()}`);
        tags.add(tagOf(child.xml));
        documents.set(createHash('sha256').update(child.xml).digest('hex'), child.xml);
      }
      // The children of one index are of one set.
      assert.equal(tags.size, 1);
      indexTags.add([...tags][0] as string);
      // A breath between rounds, so that the commits (in this process) are not starved.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const clients = Array.from({ length: CONNECTIONS }, (_, id) => client(id));
  for (let k = 1; k <= COMMITS; k++) {
    await writeSet(dir, `s${k}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Until the last set has been seen by a client (or a deadline), then the clients finish their round.
  const deadline = Date.now() + 5000;
  while (!indexTags.has(`s${COMMITS}`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  committing = false;
  await Promise.all(clients);
  assert.ok(indexTags.has(`s${COMMITS}`), [...indexTags].join());
  assert.ok(indexTags.size >= 2, `sets seen: ${[...indexTags].join()}`);
  assert.ok(requests > CONNECTIONS * 4, String(requests));
  // Documents answered, valid against the schemas: an index and a child of the last set (the others
  // differ from them only in their URLs; each was read whole above, with no error).
  const all = [...documents.values()];
  const indexes = all.filter((xml) => xml.includes('<sitemapindex'));
  const sample = [indexes.at(-1), all.find((xml) => xml.includes(`/s${COMMITS}/`))] as string[];
  for (const xml of sample) {
    const result = await xmllint(xml, xml.includes('<sitemapindex') ? 'siteindex' : 'sitemap');
    assert.ok(result.valid, result.errors.join('\n'));
  }
  assert.equal(await serve.stop(), 0);
});
