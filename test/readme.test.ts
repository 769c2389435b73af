// The README is what a newcomer reads first: it must stay short, name only files that exist (in the
// package, since that is where an npm user reads it), and show what the commands really print. Its
// tour and library examples are run here on the built package (`npm test` builds first) and their
// output compared with the README's; after a deliberate change of the output, refresh the README with
//   UPDATE_README=1 node scripts/run-tests.js test/readme.test.ts
// (durations and content tokens are compared loosely: they differ from run to run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README_PATH = join(ROOT, 'README.md');
const README = readFileSync(README_PATH, 'utf8');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; scripts: Record<string, string> };
const DOCS = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const MARKDOWN = ['README.md', ...DOCS];

/** Top-level names of the repository that a path may start with (build output and installs left out). */
/** What git ignores at the top (the output of the README's own tour, `out/` and `public/`, among them). */
const IGNORED = new Set(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n').map((line) => line.trim().replace(/\/$/, '')).filter((line) => line !== '' && !line.startsWith('#')));
const TOP = new Set(readdirSync(ROOT).filter((name) => !name.startsWith('.') && !IGNORED.has(name) && !['dist-check', 'coverage'].includes(name)));

interface Block {
  lang: string;
  body: string;
  /** Offsets of the body in the file. */
  start: number;
  end: number;
}

function fencedBlocks(text: string): Block[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => {
    const start = (m.index as number) + 4 + (m[1] as string).length;
    return { lang: m[1] as string, body: m[2] as string, start, end: start + (m[2] as string).length };
  });
}

/** The text outside fenced blocks. */
function prose(text: string): string {
  return text.replace(/^```\w*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchors of the headings (lower case, punctuation dropped, spaces as hyphens) and `<a id>`s. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1] as string));
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string).trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Words that name a file or folder of the repository: `examples/urls.txt`, `bench/results/`, `LICENSE`. */
function repoPaths(text: string): string[] {
  const paths: string[] = [];
  for (const word of text.split(/[\s`'"()[\],;|=]+/)) {
    const path = word.replace(/[.:]+$/, '');
    if (!/^[\w.@-]+(\/[\w.@-]*)*$/.test(path) || path.includes('..')) continue;
    const first = path.split('/')[0] as string;
    if (!TOP.has(first)) continue;
    if (!path.includes('/') && !statSync(join(ROOT, first)).isFile()) continue; // `test`, `docs` as words
    paths.push(path);
  }
  return paths;
}

/** Whether `path` is in the package (package.json `files`, plus what npm always includes). */
function inPackage(path: string): boolean {
  const first = path.split('/')[0] as string;
  return first === 'package.json' || PKG.files.some((entry) => entry === first || entry === path);
}

test('the README starts with the install line for users and the two set-up commands of a clone, as CI and people run them', () => {
  const first = fencedBlocks(README)[0] as Block;
  assert.equal(first.lang, 'sh');
  assert.equal(
    first.body,
    'npm i -g sitemapkit    # to use it: sitemapkit <command> --help\n' +
      'npm ci && npm start    # in a clone: builds, writes the sitemaps of examples/urls.txt into out/, prints a summary\n' +
      'npm test               # in a clone: type-check, lint, build, every test\n',
  );
  assert.ok(README.indexOf('```sh') < README.indexOf('\n## '), 'the block comes before the first section');
  assert.match(PKG.scripts.start as string, /examples\/urls\.txt --base-url .* --out out$/);
  assert.match(PKG.scripts.test as string, /build/);
});

test('the README says how to install the package and run it without installing', () => {
  assert.ok(/^npm i -g sitemapkit\b/m.test(README), 'a line `npm i -g sitemapkit`');
  assert.ok(/^npx sitemapkit\b/m.test(README), 'a line `npx sitemapkit …`');
});

test('the README is short: at most about 15 KB, the measurement log lives in docs/performance.md', () => {
  const bytes = Buffer.byteLength(README);
  assert.ok(bytes <= 15_500, `README.md is ${bytes} bytes`);
  assert.match(README, /\]\(docs\/performance\.md\)/);
  assert.match(readFileSync(join(ROOT, 'docs/performance.md'), 'utf8'), /^## Bounded in problems \(issue 22\)$/m);
});

test('every relative link of the README and docs/ names a file that exists, and a heading that exists', () => {
  const broken: string[] = [];
  for (const file of MARKDOWN) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target as string)) continue;
      const [path, anchor] = (target as string).split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) {
        broken.push(`${file}: ${target} (no ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor)) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
      if (file === 'README.md' && !inPackage(resolved)) broken.push(`${file}: ${target} is not in the package`);
    }
  }
  assert.deepEqual(broken, []);
});

test('every repository path the README and docs/ name exists, and the README\'s are in the package', () => {
  const missing: string[] = [];
  for (const file of MARKDOWN) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const path of repoPaths(text)) {
      if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path} does not exist`);
      else if (file === 'README.md' && !inPackage(path)) missing.push(`${file}: ${path} is not in the package`);
    }
    // The files a documented `read` or `validate` runs on (today's README named a seed.xml that was nowhere).
    for (const block of fencedBlocks(text).filter((b) => b.lang === 'console')) {
      for (const [, args] of block.body.matchAll(/^\$ sitemapkit (?:read|validate) (.+)$/gm)) {
        for (const arg of (args as string).split(/\s+/)) {
          if (/^[^-][^:]*\.(xml|gz|txt|csv|tsv|jsonl)$/.test(arg) && !existsSync(join(ROOT, arg))) missing.push(`${file}: ${arg} (a command's input) does not exist`);
        }
      }
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(repoPaths(README).includes('examples/urls.txt'), 'the path scan sees the README\'s paths');
  assert.deepEqual(repoPaths('`seed.xml`, `src/core/nowhere.ts` and `a/b.html`'), ['src/core/nowhere.ts']);
});

test('the README\'s library examples are the files in examples/, word for word', () => {
  const quoted = fencedBlocks(README).filter((b) => b.lang === 'js');
  assert.ok(quoted.length >= 4, `${quoted.length} js blocks`);
  const names = new Set<string>();
  for (const block of quoted) {
    const name = /node (examples\/[\w-]+\.js)/.exec(block.body.split('\n')[0] as string)?.[1];
    assert.ok(name !== undefined, `a js block does not say which example it is:\n${block.body}`);
    assert.equal(block.body, readFileSync(join(ROOT, name), 'utf8'), name);
    names.add(name);
  }
  for (const fn of ['writeSitemaps', 'parseSitemap', 'validateSitemap', 'discoverSitemaps']) {
    assert.ok(quoted.some((b) => new RegExp(`\\b${fn}\\(`).test(b.body)), `an example calls ${fn}`);
  }
  for (const file of readdirSync(join(ROOT, 'examples')).filter((n) => n.endsWith('.js'))) {
    assert.ok(names.has(`examples/${file}`), `examples/${file} is not quoted in the README`);
  }
});

/** What to compare: durations and content tokens change from run to run. */
function loosely(output: string): string {
  return output.replace(/\b\d+(?:\.\d+)? (?:ms|s)\b/g, 'TIME').replace(/\.[0-9a-f]{8}\.xml/g, '.TOKEN.xml');
}

// The origin the README's discover examples name; the test serves out/ on a free port in its stead.
const README_ORIGIN = 'http://127.0.0.1:8000';

test('the README\'s tour and library examples print what the README shows', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(join(ROOT, 'dist/cli/bin.cjs')), 'dist/ is missing: run npm run build (npm test does)');
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'sitemapkit-readme-')));
  // The examples as a user has them, and `sitemapkit` importable from them as from an installed package.
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(ROOT, join(work, 'node_modules', 'sitemapkit'), 'dir');
  const server = createServer((req, res) => {
    const path = join(work, 'out', decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'index.html') : path;
    if (relative(join(work, 'out'), file).startsWith('..') || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    let updated = README;
    let runs = 0;
    const mismatches: string[] = [];
    // From the last block to the first, so that replacing one keeps the offsets of those before it;
    // the commands themselves run in document order (each may use what an earlier one wrote).
    const blocks = fencedBlocks(README).filter((b) => b.lang === 'console' && /^\$ (sitemapkit|node examples\/)/m.test(b.body));
    const results: { block: Block; text: string }[] = [];
    for (const block of blocks) {
      const parts = block.body.split(/^(?=\$ )/m);
      let text = '';
      for (const part of parts) {
        const command = (part.split('\n')[0] as string).slice(2);
        const words = command.split(/\s+/).map((w) => w.replaceAll(README_ORIGIN, origin));
        assert.ok(!/["'\\|<>]/.test(command), `a README command the test cannot run as words: ${command}`);
        const argv = words[0] === 'sitemapkit' ? [join(ROOT, 'dist/cli/bin.cjs'), ...words.slice(1)] : words.slice(1);
        const output = await runInto(argv, work);
        runs++;
        text += `$ ${command}\n${output.replaceAll(`${work}/`, '').replaceAll(work, '.').replaceAll(origin, README_ORIGIN)}`;
      }
      results.push({ block, text });
      if (loosely(text) !== loosely(block.body)) mismatches.push(`README shows:\n${block.body}\nthe command printed:\n${text}`);
    }
    for (const { block, text } of results.reverse()) updated = updated.slice(0, block.start) + text + updated.slice(block.end);
    assert.ok(runs >= 11, `${runs} commands run`);
    if (process.env.UPDATE_README === '1') writeFileSync(README_PATH, updated);
    else assert.deepEqual(mismatches, [], 'refresh with UPDATE_README=1 node scripts/run-tests.js test/readme.test.ts');
  } finally {
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
});

/** Runs node with `argv` in `cwd`, standard output and error into one file (in the order written, as a terminal shows them). */
async function runInto(argv: string[], cwd: string): Promise<string> {
  const file = join(cwd, '.output');
  const fd = openSync(file, 'w');
  try {
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', fd, fd], env: childEnv() });
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', () => resolve());
    });
  } finally {
    closeSync(fd);
  }
  const output = readFileSync(file, 'utf8');
  rmSync(file);
  return output;
}

/** The environment of the tour's commands: no colour, and build dates from the clock as for a user. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.SOURCE_DATE_EPOCH;
  return env;
}
