// Runs the EN 16931 rules (SaxonJS) on many documents in one plain Node process: jest's VM makes SaxonJS several
// times slower. Reads [{ syntax: 'cii' | 'ubl', xml }] as JSON on stdin, writes one list of failed assertions per
// document as JSON on stdout. Usage: node en16931-validate.mjs <validators dir>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const SaxonJS = createRequire(import.meta.url)('saxon-js');
const dir = process.argv[2];
const stylesheets = {};
const stylesheet = (syntax) =>
  (stylesheets[syntax] ??= JSON.parse(readFileSync(join(dir, syntax, `EN16931-${syntax.toUpperCase()}-validation.sef.json`), 'utf8')));
const documents = JSON.parse(readFileSync(0, 'utf8'));
const results = documents.map(({ syntax, xml }) => {
  const { principalResult } = SaxonJS.transform({ stylesheetInternal: stylesheet(syntax), sourceText: xml, destination: 'serialized' }, 'sync');
  return [...principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(([, attrs, body]) => {
    const attr = (n) => (attrs.match(new RegExp(`${n}="([^"]*)"`)) ?? [])[1] ?? '';
    const text = (body.match(/<svrl:text>([\s\S]*?)<\/svrl:text>/) ?? [])[1]?.replace(/\s+/g, ' ').trim() ?? '';
    return { id: attr('id'), flag: attr('flag'), location: attr('location'), text };
  });
});
process.stdout.write(JSON.stringify(results));
