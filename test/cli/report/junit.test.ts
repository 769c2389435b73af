import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateXML } from 'xmllint-wasm';
import { formatJunit } from '../../../src/cli/report/index.js';
import { CLEAN_REPORTS, REPORTS } from './fixtures.js';

// The part of the JUnit format that Jenkins' junit-10.xsd and GitLab's reader rely on, and that
// formatJunit writes: counts are required integers, a failure has a type and a message.
const JUNIT_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attributeGroup ref="counts"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuite">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="testcase" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="failure" minOccurs="0">
                <xs:complexType>
                  <xs:simpleContent>
                    <xs:extension base="xs:string">
                      <xs:attribute name="type" type="xs:string" use="required"/>
                      <xs:attribute name="message" type="xs:string" use="required"/>
                    </xs:extension>
                  </xs:simpleContent>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attribute name="name" type="xs:string" use="required"/>
            <xs:attribute name="classname" type="xs:string" use="required"/>
          </xs:complexType>
        </xs:element>
        <xs:element name="system-out" type="xs:string" minOccurs="0"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attributeGroup ref="counts"/>
    </xs:complexType>
  </xs:element>
  <xs:attributeGroup name="counts">
    <xs:attribute name="tests" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="failures" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="errors" type="xs:nonNegativeInteger" use="required"/>
  </xs:attributeGroup>
</xs:schema>
`;

/** libxml2's complaints about the document (not well-formed, or not valid), or undefined. */
async function junitProblems(xml: string): Promise<string | undefined> {
  try {
    const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: JUNIT_XSD }] });
    return result.valid ? undefined : result.rawOutput;
  } catch (error) {
    return String(error);
  }
}

const attributes = (tag: string): Record<string, string> =>
  Object.fromEntries([...tag.matchAll(/ ([a-z]+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]));

describe('formatJunit', () => {
  const xml = formatJunit(REPORTS);

  it('is well-formed and valid against the JUnit schema', async () => {
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites '));
    assert.equal(await junitProblems(xml), undefined);
    assert.equal(await junitProblems(formatJunit(CLEAN_REPORTS)), undefined);
    assert.equal(await junitProblems(formatJunit([])), undefined);
  });

  it('is checked for real: a raw & or a missing count is reported', async () => {
    assert.match((await junitProblems(xml.replace('&amp;', '&'))) ?? '', /parser error : xmlParseEntityRef/);
    assert.match((await junitProblems(xml.replace(/ tests="\d+"/, ''))) ?? '', /attribute 'tests' is required/);
  });

  it('counts errors and warnings as failures, and a clean file as one passing test', () => {
    assert.deepEqual(attributes(/<testsuites [^>]*>/.exec(xml)?.[0] ?? ''), { name: 'sitemapkit validate', tests: '7', failures: '6', errors: '0' });
    const suites = [...xml.matchAll(/<testsuite [^>]*>/g)].map((m) => attributes(m[0]));
    assert.deepEqual(suites, [
      { name: 'public/sitemap.xml', tests: '3', failures: '3', errors: '0' },
      { name: 'clean.xml', tests: '1', failures: '0', errors: '0' },
      { name: 'https://example.com/sitemap_index.xml', tests: '1', failures: '1', errors: '0' },
      { name: 'out/a,b:c%.xml', tests: '1', failures: '1', errors: '0' },
      { name: '-', tests: '1', failures: '1', errors: '0' },
    ]);
    assert.deepEqual([...xml.matchAll(/<testcase [^>]*>/g)].map((m) => attributes(m[0]).name), [
      'loc/not-absolute at 12:5',
      'lastmod/invalid at 7:123',
      'xml/control-char at 1040:1',
      'valid',
      'index/too-many at 9',
      'lastmod/invalid at 2:3',
      'input/empty',
    ]);
    assert.match(xml, /<testcase name="valid" classname="clean.xml"\/>/);
  });

  it('escapes markup and quotes, keeps line ends in attributes, and drops what XML cannot carry', () => {
    const failure = /<failure type="lastmod\/invalid" message="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    assert.equal(
      failure?.[1],
      'bad &quot;lastmod&quot; &lt;a &amp; b&gt; it&apos;s 100% off: 2024-13-01, 2024-14-01&#10;second line — café 日本 😀',
    );
    assert.equal(
      failure?.[2],
      '7:123 warning lastmod/invalid bad &quot;lastmod&quot; &lt;a &amp; b&gt; it&apos;s 100% off: 2024-13-01, 2024-14-01\nsecond line — café 日本 😀',
    );
    assert.match(xml, /message="raw \uFFFD\[31mred\uFFFD\[0m text, bell \uFFFD, lone \uFFFD surrogate"/);
  });

  it('puts the hint in the failure text and infos in system-out', () => {
    assert.match(xml, /<failure type="loc\/not-absolute" message="relative URL &quot;\/a&quot;">12:5 error loc\/not-absolute relative URL &quot;\/a&quot;\nFix: write the full URL, with https:\/\/<\/failure>/);
    assert.match(xml, /<system-out>info sitemap\/not-listed not listed in robots\.txt\nFix: add a Sitemap: line<\/system-out>/);
    assert.equal(xml.match(/<system-out>/g)?.length, 1);
  });
});
