import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatSarif, type SarifOptions } from '../../../src/cli/report/index.js';
import { artifactUri } from '../../../src/cli/report/sarif.js';
import { CLEAN_REPORTS, MESSY_MESSAGE, REPORTS, RULES } from './fixtures.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';

const OPTIONS: SarifOptions = {
  toolVersion: '1.2.3',
  rules: (code) => RULES.get(code),
};

interface Rule {
  id: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: string };
  helpUri?: string;
  properties?: { searchConsole?: string };
}
interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }>;
}
interface Log {
  $schema: string;
  version: string;
  runs: Array<{ tool: { driver: { name: string; version: string; informationUri?: string; rules: Rule[] } }; columnKind: string; results: Result[] }>;
}

/** What the SARIF 2.1.0 schema requires of the parts we write, and what it constrains of their values. */
function assertSarifShape(log: Log): void {
  assert.equal(log.version, '2.1.0');
  assert.ok(Array.isArray(log.runs));
  for (const run of log.runs) {
    assert.equal(typeof run.tool.driver.name, 'string');
    const rules = run.tool.driver.rules;
    assert.equal(new Set(rules.map((r) => r.id)).size, rules.length, 'rule ids are unique');
    for (const rule of rules) {
      assert.equal(typeof rule.id, 'string');
      assert.equal(typeof rule.shortDescription.text, 'string');
      assert.ok(['none', 'note', 'warning', 'error'].includes(rule.defaultConfiguration.level));
      // Optional (SARIF 2.1.0 §3.49.12); when present, an absolute URI.
      if (rule.helpUri !== undefined) assert.doesNotThrow(() => new URL(rule.helpUri as string));
    }
    for (const result of run.results) {
      assert.equal(typeof result.message.text, 'string');
      assert.ok(['none', 'note', 'warning', 'error'].includes(result.level));
      assert.equal(rules[result.ruleIndex]?.id, result.ruleId, 'ruleIndex points at the rule of ruleId');
      for (const { physicalLocation } of result.locations) {
        assert.equal(typeof physicalLocation.artifactLocation.uri, 'string');
        const region = physicalLocation.region;
        if (region !== undefined) {
          assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
          assert.ok(region.startColumn === undefined || (Number.isInteger(region.startColumn) && region.startColumn >= 1));
        }
      }
    }
  }
}

describe('formatSarif', () => {
  const text = formatSarif(REPORTS, OPTIONS);
  const log = JSON.parse(text) as Log;
  const run = log.runs[0];
  assert.ok(run !== undefined);
  const { rules } = run.tool.driver;

  it('is a SARIF 2.1.0 log with one run of sitemapkit', () => {
    assertSarifShape(log);
    assert.equal(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
    assert.equal(log.runs.length, 1);
    assert.deepEqual({ ...run.tool.driver, rules: undefined }, {
      name: 'sitemapkit',
      version: '1.2.3',
      rules: undefined,
    });
    assert.equal(run.columnKind, 'utf16CodeUnits');
    assert.ok(text.endsWith('}\n'));
  });

  it('describes each code used once, from the catalogue when it knows it', () => {
    assert.deepEqual(rules.map((r) => r.id), ['index/too-many', 'input/empty', 'lastmod/invalid', 'loc/not-absolute', 'sitemap/not-listed', 'xml/control-char']);
    const byId = new Map(rules.map((r) => [r.id, r]));
    assert.deepEqual(byId.get('lastmod/invalid'), {
      id: 'lastmod/invalid',
      shortDescription: { text: 'lastmod is a W3C datetime' },
      defaultConfiguration: { level: 'warning' },
      properties: { searchConsole: 'Invalid date' },
    });
    // The documented severity, not the one the diagnostic was raised with (warning).
    assert.equal(byId.get('index/too-many')?.defaultConfiguration.level, 'error');
    assert.equal(byId.get('index/too-many')?.properties, undefined);
    assert.equal(byId.get('sitemap/not-listed')?.defaultConfiguration.level, 'note');
    // Unknown to the catalogue: the code as description, the level of its diagnostic.
    assert.deepEqual(byId.get('xml/control-char')?.shortDescription, { text: 'xml/control-char' });
    assert.equal(byId.get('xml/control-char')?.defaultConfiguration.level, 'error');
  });

  it('writes one result per diagnostic, in order, with level, message and hint', () => {
    assert.deepEqual(
      run.results.map((r) => [r.ruleId, r.level]),
      [
        ['loc/not-absolute', 'error'],
        ['lastmod/invalid', 'warning'],
        ['xml/control-char', 'error'],
        ['sitemap/not-listed', 'note'],
        ['index/too-many', 'warning'],
        ['lastmod/invalid', 'warning'],
        ['input/empty', 'error'],
      ],
    );
    assert.equal(run.results[0]?.message.text, 'relative URL "/a" Fix: write the full URL, with https://');
    assert.equal(run.results[1]?.message.text, MESSY_MESSAGE);
  });

  it('locates results in the file, with the region when known', () => {
    const locations = run.results.map((r) => r.locations[0]?.physicalLocation);
    assert.deepEqual(locations[0], { artifactLocation: { uri: 'public/sitemap.xml' }, region: { startLine: 12, startColumn: 5 } });
    assert.deepEqual(locations[3], { artifactLocation: { uri: 'https://example.com/sitemap_index.xml' } });
    assert.deepEqual(locations[4], { artifactLocation: { uri: 'https://example.com/sitemap_index.xml' }, region: { startLine: 9 } });
    assert.deepEqual(locations[5], { artifactLocation: { uri: 'out/a%2Cb%3Ac%25.xml' }, region: { startLine: 2, startColumn: 3 } });
  });

  it('makes URIs of paths, and leaves URLs alone', () => {
    assert.equal(artifactUri('./sitemaps/site map é.xml'), 'sitemaps/site%20map%20%C3%A9.xml');
    assert.equal(artifactUri('sub\\dir\\a#1.xml'), 'sub/dir/a%231.xml');
    assert.equal(artifactUri('/srv/www/sitemap.xml'), 'file:///srv/www/sitemap.xml');
    assert.equal(artifactUri('C:\\Users\\me\\sitemap.xml'), 'file:///C:/Users/me/sitemap.xml');
    assert.equal(artifactUri('http://example.com/a%20b.xml?x=1#top'), 'http://example.com/a%20b.xml?x=1#top');
    // A URL as typed is no URI until serialised: a space, an IRI's ü, a scheme in capitals.
    assert.equal(artifactUri('HTTPS://Example.com/a b/ü.xml'), 'https://example.com/a%20b/%C3%BC.xml');
  });

  it('is a valid empty run when clean', () => {
    const clean = JSON.parse(formatSarif(CLEAN_REPORTS, OPTIONS)) as Log;
    assertSarifShape(clean);
    assert.deepEqual([clean.runs[0]?.tool.driver.rules, clean.runs[0]?.results], [[], []]);
  });

  it('names no documentation address (the project publishes none): no informationUri, no helpUri', () => {
    assert.equal('informationUri' in run.tool.driver, false);
    for (const rule of rules) assert.equal('helpUri' in rule, false, rule.id);
  });

  it('fails the shape check on a broken ruleIndex', () => {
    const broken = JSON.parse(text) as Log;
    const first = broken.runs[0]?.results[0];
    assert.ok(first !== undefined);
    first.ruleIndex += 1;
    assert.throws(() => assertSarifShape(broken), /ruleIndex/);
  });
});

describe('validate --format sarif', () => {
  it('points no URL at github.com/sitemapkit (an address that does not exist; issue 23)', async () => {
    const dir = tempDir();
    const S = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
    writeFileSync(join(dir, 'dup.xml'), `<urlset ${S}>\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/a</loc></url>\n<url><loc>/b</loc></url>\n</urlset>\n`);
    const r = await runCli(['validate', 'dup.xml', '--format', 'sarif', '--now', '2024-06-01'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as Log;
    assertSarifShape(log);
    assert.ok((log.runs[0]?.tool.driver.rules.length ?? 0) >= 2, 'the rules that fired are described');
    assert.doesNotMatch(r.stdout, /github\.com\/sitemapkit/i);
    // Every address in the log is the schema's, or one the sitemap itself names.
    const urls = new Set(r.stdout.match(/https?:\/\/[^"\s\\]+/g) ?? []);
    for (const url of urls) assert.ok(url === 'https://json.schemastore.org/sarif-2.1.0.json' || url.startsWith('https://example.com/'), url);
  });
});
