// Runs the EN 16931 rules (SaxonJS) on many documents of one syntax in one plain Node process: jest's VM makes
// SaxonJS several times slower. With --xsd (CII only) also validates each against the CII D16B XML Schema (xmllint-wasm).
// Usage: node en16931-validate.mjs <validators dir> cii|ubl [--xsd] < documents.json   (a JSON array of XML strings)
// Writes [{ failures: [{ id, flag, location, text }], schemaErrors?: [string] }] as JSON on stdout.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js');
const [dir, syntax, xsd] = process.argv.slice(2);
const stylesheet = JSON.parse(readFileSync(join(dir, syntax, `EN16931-${syntax.toUpperCase()}-validation.sef.json`), 'utf8'));
const documents = JSON.parse(readFileSync(0, 'utf8'));

function failures(xml) {
  const { principalResult } = SaxonJS.transform({ stylesheetInternal: stylesheet, sourceText: xml, destination: 'serialized' }, 'sync');
  return [...principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(([, attrs, body]) => {
    const attr = (n) => (attrs.match(new RegExp(`${n}="([^"]*)"`)) ?? [])[1] ?? '';
    const text = (body.match(/<svrl:text>([\s\S]*?)<\/svrl:text>/) ?? [])[1]?.replace(/\s+/g, ' ').trim() ?? '';
    return { id: attr('id'), flag: attr('flag'), location: attr('location'), text };
  });
}

const schemaDir = join(dir, 'cii', 'schema', 'D16B', 'uncefact', 'data', 'standard');
const schemaFile = (name) => ({ fileName: name, contents: readFileSync(join(schemaDir, name), 'utf8') });
const imported = ['QualifiedDataType', 'ReusableAggregateBusinessInformationEntity', 'UnqualifiedDataType'].map((p) => schemaFile(`CrossIndustryInvoice_${p}_100pD16B.xsd`));
const schema = xsd === '--xsd' ? [schemaFile('CrossIndustryInvoice_100pD16B.xsd')] : null;

/** All documents in one xmllint run (each run instantiates the WebAssembly module): errors by document. */
async function schemaErrors(xmls) {
  const { validateXML } = require('xmllint-wasm');
  const files = xmls.map((contents, i) => ({ fileName: `invoice-${i}.xml`, contents }));
  const result = await validateXML({ xml: files, schema, preload: imported });
  return files.map((f) => result.errors.filter((e) => e.loc?.fileName === f.fileName || e.rawMessage.startsWith(f.fileName)).map((e) => e.rawMessage));
}

const schemaResults = schema ? await schemaErrors(documents) : null;
const results = documents.map((xml, i) => ({ failures: failures(xml), ...(schemaResults && { schemaErrors: schemaResults[i] }) }));
process.stdout.write(JSON.stringify(results));
