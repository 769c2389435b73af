// IndexNow in the core (issue #6 "Announcing"): key rules, endpoint forms, payloads per host in
// batches of at most 10,000, keyLocation only on its own host, and what each status code means.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SitemapError } from '../../src/core/errors.js';
import {
  DEFAULT_INDEXNOW_ENDPOINT,
  explainIndexNowStatus,
  indexNowEndpoint,
  indexNowKeyFileUrl,
  indexNowKeyProblem,
  indexNowPayloads,
  type IndexNowPayload,
} from '../../src/core/indexnow.js';

const KEY = '73134416ae45434d98edc086e0bf6740';

function throwsCode(fn: () => unknown, code: string, pattern?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof SitemapError, `expected a SitemapError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (pattern !== undefined) assert.match(error.message, pattern);
    return true;
  });
}

describe('indexNowKeyProblem', () => {
  it('accepts 8 to 128 characters of a-z, A-Z, 0-9 and "-"', () => {
    for (const key of [KEY, 'abcdefgh', 'ABCD-1234', 'a'.repeat(128), 'EdD8dkmdNLlxREi2LkhJjYOH2kyQbJqM3cBKT5fX', '--------']) {
      assert.equal(indexNowKeyProblem(key), undefined, key);
    }
  });

  it('refuses a key too short or too long, saying how long it is', () => {
    assert.match(indexNowKeyProblem('abcdefg') ?? '', /has 7 characters; a key has 8 to 128/);
    assert.match(indexNowKeyProblem('a'.repeat(129)) ?? '', /has 129 characters/);
    assert.match(indexNowKeyProblem('') ?? '', /empty/);
  });

  it('refuses any other character, naming it and its position', () => {
    assert.match(indexNowKeyProblem('abcd_efgh') ?? '', /"_" at position 5/);
    assert.match(indexNowKeyProblem('abcdefgh ') ?? '', /" " at position 9/);
    assert.match(indexNowKeyProblem('abcdefgh.txt') ?? '', /"\." at position 9/);
    assert.match(indexNowKeyProblem('clé-12345') ?? '', /"é" at position 3/);
    assert.match(indexNowKeyProblem('😀abcdefgh') ?? '', /"😀" at position 1/);
  });
});

describe('indexNowEndpoint', () => {
  it('defaults to the shared api.indexnow.org endpoint', () => {
    assert.equal(DEFAULT_INDEXNOW_ENDPOINT, 'https://api.indexnow.org/indexnow');
    assert.equal(indexNowEndpoint(), DEFAULT_INDEXNOW_ENDPOINT);
    assert.equal(indexNowEndpoint(''), DEFAULT_INDEXNOW_ENDPOINT);
    assert.equal(indexNowEndpoint('  '), DEFAULT_INDEXNOW_ENDPOINT);
  });

  it('takes a bare host as https, and gives a URL without a path /indexnow', () => {
    assert.equal(indexNowEndpoint('api.indexnow.org'), 'https://api.indexnow.org/indexnow');
    assert.equal(indexNowEndpoint('www.bing.com'), 'https://www.bing.com/indexnow');
    assert.equal(indexNowEndpoint('localhost:8080'), 'https://localhost:8080/indexnow');
    assert.equal(indexNowEndpoint('https://www.bing.com'), 'https://www.bing.com/indexnow');
    assert.equal(indexNowEndpoint('https://www.bing.com/'), 'https://www.bing.com/indexnow');
    assert.equal(indexNowEndpoint('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/indexnow');
    assert.equal(indexNowEndpoint('HTTPS://Search.Example'), 'https://search.example/indexnow');
  });

  it('keeps a path (and query) as written, drops a fragment', () => {
    assert.equal(indexNowEndpoint('https://yandex.com/indexnow'), 'https://yandex.com/indexnow');
    assert.equal(indexNowEndpoint('https://www.bing.com/IndexNow'), 'https://www.bing.com/IndexNow');
    assert.equal(indexNowEndpoint('https://engine.example/api/v2/submit?tenant=1#x'), 'https://engine.example/api/v2/submit?tenant=1');
  });

  it('refuses other schemes and non-URLs', () => {
    throwsCode(() => indexNowEndpoint('ftp://api.indexnow.org/'), 'ERR_SITEMAP_OPTION', /http or https/);
    throwsCode(() => indexNowEndpoint('file:///etc/passwd'), 'ERR_SITEMAP_OPTION');
    throwsCode(() => indexNowEndpoint('https://'), 'ERR_SITEMAP_OPTION', /not a URL/);
    throwsCode(() => indexNowEndpoint('exa mple.com'), 'ERR_SITEMAP_OPTION', /not a URL/);
  });
});

describe('indexNowPayloads', () => {
  it('cuts 25,001 URLs of one host into 10,000 + 10,000 + 5,001, in order', () => {
    const urls = Array.from({ length: 25_001 }, (_, i) => `https://www.example.com/p/${i}`);
    const payloads = indexNowPayloads(urls, { key: KEY });
    assert.deepEqual(payloads.map((p) => p.urlList.length), [10_000, 10_000, 5_001]);
    assert.deepEqual(payloads.flatMap((p) => p.urlList), urls);
    for (const p of payloads) {
      assert.equal(p.host, 'www.example.com');
      assert.equal(p.key, KEY);
      assert.equal('keyLocation' in p, false);
    }
  });

  it('makes the JSON body the protocol shows: host, key, urlList', () => {
    const [payload] = indexNowPayloads(['https://www.example.com/url1', 'https://www.example.com/folder/url2'], { key: KEY });
    assert.equal(JSON.stringify(payload), `{"host":"www.example.com","key":"${KEY}","urlList":["https://www.example.com/url1","https://www.example.com/folder/url2"]}`);
  });

  it('gives each host its own payloads, hosts in the order first seen, each URL once', () => {
    const payloads = indexNowPayloads(
      ['https://b.example/1', 'https://a.example/1', 'https://b.example/2', 'https://b.example/1', 'https://a.example/2', 'https://a.example/1'],
      { key: KEY },
    );
    assert.deepEqual(payloads, [
      { host: 'b.example', key: KEY, urlList: ['https://b.example/1', 'https://b.example/2'] },
      { host: 'a.example', key: KEY, urlList: ['https://a.example/1', 'https://a.example/2'] },
    ]);
  });

  it('batches per host with a smaller maxUrlsPerPost; a host never shares a batch', () => {
    const urls = ['https://a.example/1', 'https://b.example/1', 'https://a.example/2', 'https://a.example/3', 'https://b.example/2'];
    const payloads = indexNowPayloads(urls, { key: KEY, maxUrlsPerPost: 2 });
    assert.deepEqual(
      payloads.map((p) => [p.host, p.urlList]),
      [
        ['a.example', ['https://a.example/1', 'https://a.example/2']],
        ['a.example', ['https://a.example/3']],
        ['b.example', ['https://b.example/1', 'https://b.example/2']],
      ],
    );
  });

  it('keeps a non-default port in the host; http and https of one host share a payload', () => {
    const payloads = indexNowPayloads(
      ['https://www.example.com:443/a', 'http://www.example.com/b', 'https://www.example.com:8443/c', 'http://www.example.com:443/d', 'https://WWW.Example.com/e'],
      { key: KEY },
    );
    assert.deepEqual(
      payloads.map((p) => [p.host, p.urlList]),
      [
        ['www.example.com', ['https://www.example.com:443/a', 'http://www.example.com/b', 'https://WWW.Example.com/e']],
        ['www.example.com:8443', ['https://www.example.com:8443/c']],
        ['www.example.com:443', ['http://www.example.com:443/d']],
      ],
    );
  });

  it('puts keyLocation only into the payloads of its own host', () => {
    const keyLocation = 'https://www.example.com/indexnow.txt';
    const payloads = indexNowPayloads(
      ['https://www.example.com/1', 'https://blog.example.com/1', 'https://www.example.com/2', 'https://www.example.com:8443/1'],
      { key: KEY, keyLocation, maxUrlsPerPost: 1 },
    );
    assert.deepEqual(payloads, [
      { host: 'www.example.com', key: KEY, keyLocation, urlList: ['https://www.example.com/1'] },
      { host: 'www.example.com', key: KEY, keyLocation, urlList: ['https://www.example.com/2'] },
      { host: 'blog.example.com', key: KEY, urlList: ['https://blog.example.com/1'] },
      { host: 'www.example.com:8443', key: KEY, urlList: ['https://www.example.com:8443/1'] },
    ]);
    assert.equal(JSON.stringify(payloads[0]), `{"host":"www.example.com","key":"${KEY}","keyLocation":"${keyLocation}","urlList":["https://www.example.com/1"]}`);
  });

  it('refuses the URLs of the keyLocation\'s host outside its folder, which the key file does not authorise, with their count and one of them', () => {
    const keyLocation = 'https://www.example.com/shop/key.txt';
    const urls = ['https://www.example.com/shop/a', 'https://www.example.com/shop/x/b', 'https://blog.example.com/c', 'http://www.example.com/shop/d'];
    assert.deepEqual(indexNowPayloads(urls, { key: KEY, keyLocation }).map((p) => [p.host, p.keyLocation, p.urlList.length]), [
      ['www.example.com', keyLocation, 3],
      ['blog.example.com', undefined, 1],
    ]);
    throwsCode(
      () => indexNowPayloads([...urls, 'https://www.example.com/about', 'https://www.example.com/shopping', 'https://www.example.com/about'], { key: KEY, keyLocation }),
      'ERR_SITEMAP_OPTION',
      /^2 of the 5 URLs on www\.example\.com are outside \/shop\/, the folder of the key file https:\/\/www\.example\.com\/shop\/key\.txt \(keyLocation\), e\.g\. https:\/\/www\.example\.com\/about: /,
    );
  });

  it('refuses a keyLocation on a host none of the URLs is on, which would go unused (a key file proves its own host only); no URLs, no refusal', () => {
    const keyLocation = 'https://cdn.example.net/key.txt';
    throwsCode(
      () => indexNowPayloads(['https://www.example.com/a', 'https://blog.example.com/b'], { key: KEY, keyLocation }),
      'ERR_SITEMAP_OPTION',
      /^the key file https:\/\/cdn\.example\.net\/key\.txt \(keyLocation\) is on cdn\.example\.net, and no URL is \(e\.g\. https:\/\/www\.example\.com\/a\): /,
    );
    assert.deepEqual(indexNowPayloads([], { key: KEY, keyLocation }), []);
  });

  it('makes no payload for no URLs', () => {
    assert.deepEqual(indexNowPayloads([], { key: KEY }), []);
  });

  it('refuses a bad key, a batch size outside 1..10,000, a URL or keyLocation that is not http(s)', () => {
    throwsCode(() => indexNowPayloads(['https://a.example/'], { key: 'short' }), 'ERR_SITEMAP_OPTION', /5 characters/);
    throwsCode(() => indexNowPayloads(['https://a.example/'], { key: KEY, maxUrlsPerPost: 10_001 }), 'ERR_SITEMAP_OPTION', /1 to 10000/);
    throwsCode(() => indexNowPayloads(['https://a.example/'], { key: KEY, maxUrlsPerPost: 0 }), 'ERR_SITEMAP_OPTION');
    throwsCode(() => indexNowPayloads(['https://a.example/'], { key: KEY, maxUrlsPerPost: 1.5 }), 'ERR_SITEMAP_OPTION');
    throwsCode(() => indexNowPayloads(['/relative'], { key: KEY }), 'ERR_SITEMAP_OPTION', /"\/relative"/);
    throwsCode(() => indexNowPayloads(['mailto:a@b.example'], { key: KEY }), 'ERR_SITEMAP_OPTION');
    throwsCode(() => indexNowPayloads(['https://a.example/'], { key: KEY, keyLocation: 'key.txt' }), 'ERR_SITEMAP_OPTION', /keyLocation/);
  });
});

describe('indexNowKeyFileUrl', () => {
  it('is keyLocation, or KEY.txt at the root of the host with the scheme of its first URL', () => {
    assert.equal(indexNowKeyFileUrl({ host: 'a.example', key: KEY, urlList: ['https://a.example/x'] }), `https://a.example/${KEY}.txt`);
    assert.equal(indexNowKeyFileUrl({ host: 'a.example:8080', key: KEY, urlList: ['http://a.example:8080/x'] }), `http://a.example:8080/${KEY}.txt`);
    assert.equal(indexNowKeyFileUrl({ host: 'a.example', key: KEY, keyLocation: 'https://a.example/k/key.txt', urlList: ['https://a.example/k/x'] }), 'https://a.example/k/key.txt');
  });
});

describe('explainIndexNowStatus', () => {
  const payload: IndexNowPayload = { host: 'www.example.com', key: KEY, urlList: ['https://www.example.com/a'] };

  it('accepts 200 and 202, and says 202 means the key is still being validated', () => {
    const ok = explainIndexNowStatus(200, payload);
    assert.deepEqual([ok.accepted, ok.retry, ok.code], [true, false, 'indexnow/accepted']);
    const pending = explainIndexNowStatus(202, payload);
    assert.deepEqual([pending.accepted, pending.retry, pending.code], [true, false, 'indexnow/accepted']);
    assert.match(pending.message, /not validated yet/);
    assert.match(pending.hint ?? '', new RegExp(`https://www\\.example\\.com/${KEY}\\.txt`));
  });

  it('explains 400, 403 and 422 without retrying them', () => {
    const cases: Array<[number, string]> = [
      [400, 'indexnow/bad-request'],
      [403, 'indexnow/forbidden'],
      [422, 'indexnow/unprocessable'],
    ];
    for (const [status, code] of cases) {
      const e = explainIndexNowStatus(status, payload);
      assert.deepEqual([e.accepted, e.retry, e.code], [false, false, code], String(status));
      assert.ok(e.message.startsWith(`${status} `), e.message);
    }
  });

  it('403 says where the key file must be and that --write-key-file writes it', () => {
    const e = explainIndexNowStatus(403, payload);
    assert.match(e.message, /key file is missing, or does not contain the key/);
    assert.match(e.hint ?? '', new RegExp(`at https://www\\.example\\.com/${KEY}\\.txt`));
    assert.match(e.hint ?? '', /--write-key-file/);
    const located = explainIndexNowStatus(403, { ...payload, keyLocation: 'https://www.example.com/k.txt' });
    assert.match(located.hint ?? '', /at https:\/\/www\.example\.com\/k\.txt /);
  });

  it('422 names the host the URLs must be on', () => {
    const e = explainIndexNowStatus(422, payload);
    assert.match(e.message, /do not belong to the host/);
    assert.match(e.hint ?? '', /every URL must be on www\.example\.com/);
  });

  it('retries 429 and 5xx; any other status is unexpected and not retried', () => {
    const limited = explainIndexNowStatus(429);
    assert.deepEqual([limited.accepted, limited.retry, limited.code], [false, true, 'indexnow/too-many-requests']);
    for (const status of [500, 502, 503, 599]) {
      const e = explainIndexNowStatus(status);
      assert.deepEqual([e.accepted, e.retry, e.code], [false, true, 'indexnow/server-error'], String(status));
    }
    for (const status of [201, 204, 301, 308, 401, 404, 405, 408, 600]) {
      const e = explainIndexNowStatus(status);
      assert.deepEqual([e.accepted, e.retry, e.code], [false, false, 'indexnow/unexpected-status'], String(status));
    }
    assert.match(explainIndexNowStatus(301).hint ?? '', /--endpoint/);
  });
});
