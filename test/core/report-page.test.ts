// The report page's frame, without a browser (test/browser/report-page.test.ts opens it in one):
// where the rows go, the model as JSON that cannot close its script, and a policy that names the
// page's one script by its real hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { reportPageParts } from '../../src/core/report/page.js';
import { sha256 } from '../../src/core/report/sha256.js';
import { syntheticModel } from '../browser/report-fixture.js';

test('head ends inside the rows script and tail closes it; the model is JSON that no string can end early', () => {
  const model = syntheticModel(10);
  model.source = '</script><script>alert(1)</script><!--';
  const { head, tail } = reportPageParts(model);
  assert.ok(head.endsWith('<script type="application/gzip" id="sitemapkit-rows">'));
  assert.ok(tail.startsWith('</script>'));
  const json = /<script type="application\/json" id="sitemapkit-model">(.*?)<\/script>/s.exec(head)?.[1] ?? '';
  assert.ok(!json.includes('<'), 'every < is written \\u003c');
  assert.deepEqual(JSON.parse(json), model);
  assert.equal(head.split('</script>').length, 2, 'one </script> in the head: the end of the model');
});

test('the Content-Security-Policy forbids every load and names the one script by its SHA-256', () => {
  const { head, tail } = reportPageParts(syntheticModel(10));
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(head)?.[1] ?? '';
  assert.match(policy, /^default-src 'none';/);
  const script = /<script>(.*)<\/script>/s.exec(tail)?.[1] ?? '';
  assert.ok(script.length > 1000);
  assert.ok(policy.includes(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`));
});

test('sha256 agrees with node:crypto across block boundaries', () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
    const data = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 255);
    assert.equal(Buffer.from(sha256(data)).toString('hex'), createHash('sha256').update(data).digest('hex'), `${length} bytes`);
  }
});
