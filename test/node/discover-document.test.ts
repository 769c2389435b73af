// One document of discover read into a sink of page URLs (node/discover-document.ts): the reading's own
// lane is given back when it ends, so a thread reading many small children makes one lane instance.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readDocument, type DocumentSink } from '../../src/node/discover-document.js';
import type { Lane } from '../../src/core/read/lane.js';
import { pages, urlset } from '../helpers/site-server.js';

const SETTINGS = { file: 'child.xml', maxBytes: 10_000_000, maxEntries: undefined, maxTrackedUrls: undefined };

function locSink(): DocumentSink & { taken: number } {
  return {
    taken: 0,
    format() {},
    diagnostic() {},
    url() {
      this.taken++;
    },
    urlLocs(_lane: Lane, from: number, to: number) {
      this.taken += to - from;
    },
    sitemap() {},
  };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

it('documents read one after another make one lane instance between them', async () => {
  const Instance = WebAssembly.Instance;
  let instances = 0;
  WebAssembly.Instance = class extends Instance {
    constructor(...args: ConstructorParameters<typeof Instance>) {
      super(...args);
      instances++;
    }
  };
  try {
    const bytes = new TextEncoder().encode(urlset(pages('d', 50)));
    for (let i = 0; i < 4; i++) {
      const sink = locSink();
      await readDocument(once(bytes), SETTINGS, sink);
      assert.equal(sink.taken, 50);
    }
  } finally {
    WebAssembly.Instance = Instance;
  }
  assert.ok(instances <= 1, `${instances} lane instances`);
});
