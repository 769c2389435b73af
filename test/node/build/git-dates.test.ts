import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { gitLastCommitTimes, gitTopLevel } from '../../../src/node/build/git-dates.js';
import { tempDir } from '../../helpers/tmp.js';
import { writeSite } from '../../helpers/site.js';

test("a shallow clone (CI's default checkout) dates no file by its cut-off commit: old.html took the date of the oldest commit it holds, a lastmod it never had", async () => {
  const dir = tempDir('sitemapkit-git-');
  const repo = join(dir, 'repo');
  const git = (cwd: string, args: string[], date = '2020-01-01T00:00:00Z') =>
    execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
  writeSite(repo, { 'old.html': 'old' });
  git(repo, ['init', '-q']);
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'one']);
  writeSite(repo, { 'mid.html': 'mid' });
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'two'], '2022-01-01T00:00:00Z');
  writeSite(repo, { 'new.html': 'new' });
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'three'], '2025-06-01T00:00:00Z');
  git(dir, ['clone', '-q', '--depth', '2', `file://${repo}`, 'shallow']);
  const times = async (top: string): Promise<Record<string, string>> => {
    const found = await gitLastCommitTimes((await gitTopLevel(top)) as string, ['old.html', 'mid.html', 'new.html'].map((name) => join(top, name)));
    return Object.fromEntries([...found].map(([path, time]) => [path.slice(top.length + 1), new Date(time).toISOString()]));
  };
  assert.deepEqual(await times(repo), { 'old.html': '2020-01-01T00:00:00.000Z', 'mid.html': '2022-01-01T00:00:00.000Z', 'new.html': '2025-06-01T00:00:00.000Z' });
  // The clone's oldest commit shows every file as added (its parent is cut off): only what a later one changed is known.
  assert.deepEqual(await times(join(dir, 'shallow')), { 'new.html': '2025-06-01T00:00:00.000Z' });
});
