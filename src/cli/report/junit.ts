// `sitemapkit validate --format junit`: JUnit XML for CI test reports. Each file is a test suite; each
// error or warning a failed test case; a file with neither has one passing case, "valid". Infos go to
// the suite's <system-out>.

import type { Diagnostic } from '../../core/diagnostics.js';
import { escapeXml as escapeXmlText, escapeXmlAttribute } from '../../core/xml/escape.js';
import type { FileReport } from '../../core/validate/types.js';
import { positionText } from '../format.js';

export function formatJunit(reports: readonly FileReport[]): string {
  const suites = reports.map(testSuite);
  const tests = suites.reduce((sum, s) => sum + s.tests, 0);
  const failures = suites.reduce((sum, s) => sum + s.failures, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sitemapkit validate" tests="${tests}" failures="${failures}" errors="0">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

function testSuite(report: FileReport): { tests: number; failures: number; xml: string } {
  const failed = report.diagnostics.filter((d) => d.severity !== 'info');
  const infos = report.diagnostics.filter((d) => d.severity === 'info');
  const file = escapeXml(report.file, 'attribute');
  const cases =
    failed.length > 0
      ? failed.map((d) => failedCase(d, file))
      : [`    <testcase name="valid" classname="${file}"/>`];
  const systemOut = infos.length > 0 ? [`    <system-out>${escapeXml(infos.map(describe).join('\n'), 'text')}</system-out>`] : [];
  const tests = cases.length;
  const properties =
    report.schemaValid === undefined ? [] : ['    <properties>', `      <property name="schemaValid" value="${String(report.schemaValid)}"/>`, '    </properties>'];
  return {
    tests,
    failures: failed.length,
    xml: [
      `  <testsuite name="${file}" tests="${tests}" failures="${failed.length}" errors="0">`,
      ...properties,
      ...cases,
      ...systemOut,
      '  </testsuite>',
    ].join('\n'),
  };
}

function failedCase(d: Diagnostic, escapedFile: string): string {
  const position = positionText(d);
  const name = position === '' ? d.code : `${d.code} at ${position}`;
  return [
    `    <testcase name="${escapeXml(name, 'attribute')}" classname="${escapedFile}">`,
    `      <failure type="${escapeXml(d.code, 'attribute')}" message="${escapeXml(d.message, 'attribute')}">${escapeXml(describe(d), 'text')}</failure>`,
    '    </testcase>',
  ].join('\n');
}

/** `12:5 error loc/not-absolute message` and the hint on the next line. */
function describe(d: Diagnostic): string {
  const position = positionText(d);
  const head = `${position === '' ? '' : `${position} `}${d.severity} ${d.code} ${d.message}`;
  return d.hint === undefined ? head : `${head}\nFix: ${d.hint}`;
}

/** Escaped as the writer escapes (core/xml/escape.ts); what XML 1.0 cannot carry becomes U+FFFD. */
function escapeXml(text: string, where: 'text' | 'attribute'): string {
  const xmlText = text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
  return where === 'attribute' ? escapeXmlAttribute(xmlText) : escapeXmlText(xmlText);
}
