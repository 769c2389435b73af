// Validate a sitemap served at https://www.example.com/: node examples/validate-sitemap.js [FILE]
import { validateSitemap } from 'sitemapkit';

const report = await validateSitemap(process.argv[2] ?? 'examples/problems/sitemap.xml', {
  location: 'https://www.example.com/sitemap.xml',
});
for (const problem of report.diagnostics) {
  console.log(`${problem.line}:${problem.column} ${problem.severity} ${problem.code}: ${problem.hint ?? problem.message}`);
}
console.log(`${report.entries} entries; schema-valid: ${report.schemaValid}`);
