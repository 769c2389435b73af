// A built site in a temporary folder, for the build tests: pages written from short descriptions,
// with the build noise a static site generator adds (a build id, a timestamp, cache-busting queries).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PageSpec {
  title?: string;
  body?: string;
  head?: string;
  /** Varies between builds without changing the content. */
  buildId?: string;
}

/** A complete HTML page with build noise in a comment, an inline script and asset queries. */
export function page(spec: PageSpec = {}): string {
  const build = spec.buildId ?? 'b1';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${spec.title ?? 'A page'}</title>
<link rel="stylesheet" href="/assets/site.css?v=${build}">
<meta name="generator" content="Hugo 0.${build.length}">
${spec.head ?? ''}
<script>window.__BUILD_ID__ = "${build}"; window.__BUILT_AT__ = "2026-11-21T10:00:0${build.length}Z";</script>
</head>
<body>
<!-- built ${build} at 2026-11-21T10:00:00Z -->
<header><nav><a href="/">Home</a></nav></header>
<main>
${spec.body ?? '<p>Some content.</p>'}
</main>
<script src="/assets/app.js?${build}"></script>
</body>
</html>
`;
}

/** Writes `files` (path in the site → content) under `root`. */
export function writeSite(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}
