// Which source file a built page comes from, by a rule rather than a list: `posts/*/index.html=
// content/posts/*.md` says that `posts/a/index.html` was built from `content/posts/a.md`. A
// generator's output folder is usually git-ignored, so git dates a page only through its source.

export interface SourceRule {
  /** The rule as given, for messages. */
  text: string;
  pagePrefix: string;
  pageSuffix: string;
  /** Without `*`: the rule maps one page to one source. */
  wildcard: boolean;
  sourcePrefix: string;
  sourceSuffix: string;
}

/**
 * Parses `PAGES=SOURCES`: PAGES a path in the site folder, SOURCES a file path; each holds one `*`
 * (any run of one or more characters, `/` included, the same on both sides) or neither does.
 * Returns a reason instead when the text is no such rule.
 */
export function parseSourceRule(text: string): SourceRule | { problem: string } {
  const equals = text.indexOf('=');
  if (equals === -1) return { problem: 'a rule is PAGES=SOURCES, e.g. posts/*/index.html=content/posts/*.md' };
  const pages = text.slice(0, equals).replace(/^\.?\//, '');
  const sources = text.slice(equals + 1);
  if (pages === '' || sources === '') return { problem: 'both sides of = need a path' };
  const pageStars = pages.split('*').length - 1;
  const sourceStars = sources.split('*').length - 1;
  if (pageStars > 1 || sourceStars > 1 || pageStars !== sourceStars) return { problem: 'put one * on each side of =, or none' };
  const [pagePrefix, pageSuffix = ''] = pages.split('*') as [string, string?];
  const [sourcePrefix, sourceSuffix = ''] = sources.split('*') as [string, string?];
  return { text, pagePrefix, pageSuffix, wildcard: pageStars === 1, sourcePrefix, sourceSuffix };
}

/** The source `rule` gives the page at `relPath` (a `/`-separated path in the site folder), if it matches. */
export function ruleSource(rule: SourceRule, relPath: string): string | undefined {
  if (!rule.wildcard) return relPath === rule.pagePrefix ? rule.sourcePrefix : undefined;
  if (relPath.length <= rule.pagePrefix.length + rule.pageSuffix.length) return undefined;
  if (!relPath.startsWith(rule.pagePrefix) || !relPath.endsWith(rule.pageSuffix)) return undefined;
  const part = relPath.slice(rule.pagePrefix.length, relPath.length - rule.pageSuffix.length);
  return rule.sourcePrefix + part + rule.sourceSuffix;
}
