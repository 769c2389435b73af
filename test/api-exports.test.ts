// The package entry exports what the README tells people to import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../src/core/index.js';
import * as entry from '../src/index.js';
import * as htmlPage from '../src/core/build/html-page.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('every library function the README names in `name(…)` form is exported by sitemapkit, sitemapkit/core or sitemapkit/html-page', () => {
  // Methods of returned objects, not exports: reading.summary(), run.batches(), writer.add()/end(), and
  // the platform's fetch() and assert().
  const methods = new Set(['summary', 'batches', 'tree', 'add', 'end', 'fetch', 'assert']);
  const named = new Set([...README.matchAll(/`([a-zA-Z]+)\(/g)].map((m) => m[1] as string).filter((name) => !methods.has(name)));
  assert.ok(named.has('discoverSitemaps') && named.has('validateSitemapUrl') && named.has('parseSitemap'), [...named].join(', '));
  const exported = { ...core, ...entry, ...htmlPage } as Record<string, unknown>;
  const missing = [...named].filter((name) => typeof exported[name] !== 'function');
  assert.deepEqual(missing, []);
});

test('the `import { … } from \'sitemapkit\'` and \'sitemapkit/core\' lines of the README name real exports', () => {
  for (const [, names, from] of README.matchAll(/import \{([^}]+)\} from '(sitemapkit(?:\/core)?)'/g)) {
    const module = (from === 'sitemapkit/core' ? core : entry) as Record<string, unknown>;
    for (const name of (names as string).split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '))) {
      assert.notEqual(module[name], undefined, `${name} from ${from}`);
    }
  }
});

// The public API, entry by entry: what a program can import. A change here is a change of the
// package's interface (semver): add a name only when the README or docs/ document it (or a documented
// signature needs its type); the checkers, readers, tokenizer, code tables, `_`-prefixed helpers and
// the command line's `run` stay internal and are imported from their modules inside this repository.
const CORE_VALUES = [
  'CHANGEFREQS', 'InvalidValueError', 'LIMITS_PROFILES', 'NS', 'SitemapDocument', 'SitemapError', 'SitemapSetWriter', 'createSitemapHandler', 'escapeXml', 'indexNowPayloads',
  'isAllowed', 'liveSource', 'memoryStore', 'normalizeUrl', 'parseRobotsTxt', 'readXmlSitemapText', 'serializeSitemap', 'serializeSitemapIndex', 'setSitemapLines',
  'toSitemapDate', 'validateXmlSitemapText',
];
const CORE_TYPES = [
  'AddResult', 'AlternateLink', 'CacheStore', 'CachedFile', 'Changefreq', 'DateInput', 'Diagnostic', 'DiagnosticCounts', 'EntryPosition', 'ExtensionNamespace', 'FileReport', 'ImageEntry',
  'IndexNowPayload', 'IndexNowPayloadOptions', 'Limits', 'LimitsProfileName', 'LineEnding', 'LiveSourceOptions', 'NewsEntry', 'ReaderBudgets', 'ReaderSink', 'Relationship',
  'Representation', 'RobotsDirective', 'RobotsGroup', 'RobotsRule', 'RobotsSitemapLine', 'RobotsTxt', 'RobotsTxtProblem', 'RuleSetting',
  'SerializeSitemapOptions', 'SetView', 'Severity', 'SitemapAnswer', 'SitemapDate', 'SitemapDocumentOptions', 'SitemapFile', 'SitemapFileInfo', 'SitemapFormat', 'SitemapHandler', 'SitemapHandlerOptions', 'SitemapIndexOptions', 'SitemapLineProblem',
  'SitemapLinesEdit', 'SitemapLinesOptions', 'SitemapRef', 'SitemapSetSink', 'SitemapSetWriterOptions', 'SitemapSource', 'SitemapSummary', 'StreamedRepresentation', 'TouchedLine', 'UrlEntry',
  'ValidationOptions', 'VideoEntry', 'VideoPrice', 'VideoTvShow', 'XmlSitemapReadResult', 'YesNo',
];
const PUBLIC_API: Record<string, { file: string; module: object; values: string[]; types: string[] }> = {
  sitemapkit: {
    file: 'src/index.ts',
    module: entry,
    values: [
      ...CORE_VALUES, 'buildSite', 'directoryStore', 'discoverSitemaps', 'openDirectorySource', 'parseSitemap', 'readInput', 'readSitemap', 'submitIndexNow',
      'toNodeListener', 'validateSitemap', 'validateSitemapUrl', 'writeSitemaps',
    ],
    types: [
      ...CORE_TYPES, 'AddressPolicyOptions', 'BuildProgress', 'BuildSiteOptions', 'BuildSiteResult', 'BuiltFile', 'DirectorySource', 'DirectorySourceOptions', 'DiscoverEvent',
      'DiscoverOptions', 'DiscoveryInput', 'DiscoveryRun', 'DiscoveryTotals', 'DiscoveryTree', 'DocumentOutcome', 'ExcludedPage',
      'ExclusionReason', 'FetchFunction', 'FileStatus', 'HttpClientOptions', 'IndexMode', 'IndexNowResult', 'IndexNowSubmitOptions',
      'InitialLastmod', 'InputErrorCode', 'InputFormat', 'InputRecord', 'LookupAll', 'NodeListener', 'NodeListenerOptions', 'PageProblem', 'ParseSitemapOptions',
      'ReadInputOptions', 'ReadSitemapOptions', 'ResponseDone', 'RobotsNode', 'SitemapInput', 'SitemapItem', 'SitemapNode', 'SitemapReading',
      'SitemapUrlValidationResult', 'SitemapValidationResult', 'SitemapVia', 'TrailingSlash', 'ValidateSitemapOptions',
      'ValidateSitemapUrlOptions', 'WriteProgress', 'WriteSitemapsOptions', 'WriteSummary', 'WrittenFile',
    ],
  },
  'sitemapkit/core': { file: 'src/core/index.ts', module: core, values: CORE_VALUES, types: CORE_TYPES },
  'sitemapkit/html-page': {
    file: 'src/core/build/html-page.ts',
    module: htmlPage,
    values: ['HTML_PRESCAN_BYTES', 'scanHtmlPage', 'sniffHtmlEncoding'],
    types: ['PageAlternate', 'PageFacts', 'ScanHtmlPageOptions'],
  },
};

const sorted = (names: Iterable<string>): string[] => [...names].sort();

test('each entry exports exactly the listed values (the public API, at run time)', () => {
  for (const [name, api] of Object.entries(PUBLIC_API)) {
    assert.deepEqual(sorted(Object.keys(api.module)), sorted(api.values), name);
  }
});

test('each entry exports exactly the listed types (the public API, for TypeScript)', async () => {
  // The compiler's view of each entry file: every exported name, types and values alike.
  const ts = (await import('typescript')).default;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = Object.values(PUBLIC_API).map((api) => join(root, api.file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // Only the names are needed, not their types: no lib and no @types to parse.
    noLib: true,
    types: [],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  for (const [name, api] of Object.entries(PUBLIC_API)) {
    const source = program.getSourceFile(join(root, api.file));
    assert.ok(source !== undefined, api.file);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol !== undefined, api.file);
    const exported = checker.getExportsOfModule(moduleSymbol).map((s) => s.name);
    const values = new Set(Object.keys(api.module));
    assert.deepEqual(sorted(exported.filter((n) => !values.has(n))), sorted(api.types), name);
  }
});

test('no entry exports an internal: a checker class, a code table, an `_` helper or the command line', () => {
  for (const [name, api] of Object.entries(PUBLIC_API)) {
    const internal = Object.keys(api.module).filter((n) => n.startsWith('_') || /Checker$|_CODES$|_RULES$|^run$|Tokenizer|Reader$|Validation$/.test(n));
    assert.deepEqual(internal, [], name);
  }
});
