// The progress line of long work on a terminal (progress.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Progress } from '../../src/cli/progress.js';

test('the progress line writes the control characters of a name as escapes: a hostile name cannot drive the terminal', () => {
  let written = '';
  const progress = Progress.onTerminal({ write: (text: string) => (written += text), isTTY: true }, true, () => 'report: reading sitemap-\u001b]0;pwned\u0007.xml\n: 1 URL');
  progress.tick();
  assert.equal(written, '\r\u001b[Kreport: reading sitemap-\\u001b]0;pwned\\u0007.xml\\n: 1 URL');
});
