/**
 * The official EN 16931 validation artefacts (CEN/TC 434, release 1.3.16: the Schematron rules compiled for SaxonJS,
 * and the CII D16B schemas), found through EN16931_VALIDATORS_DIR (.ci/run sets it when ../shared/validators/en16931
 * exists). Each stylesheet is read once per test file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const validatorsDir = process.env.EN16931_VALIDATORS_DIR;
export const validatorsAvailable = Boolean(validatorsDir && existsSync(join(validatorsDir, 'cii', 'EN16931-CII-validation.sef.json')));

export function warnIfUnavailable(what: string): void {
  if (validatorsAvailable) return;
  console.warn(
    `${what} skipped: EN16931_VALIDATORS_DIR is ${validatorsDir ? `'${validatorsDir}', which has no cii/EN16931-CII-validation.sef.json` : 'unset'}. ` +
      'Get the official EN 16931 validation artefacts (ConnectingEurope/eInvoicing-EN16931, release validation-1.3.16: cii/ and ubl/ ' +
      'XSLT compiled for SaxonJS with `npx xslt3 -xsl:… -export:….sef.json -nogo -relocate:on`, and the CII D16B schemas) and set ' +
      'EN16931_VALIDATORS_DIR to their folder (docs/e-invoicing.md, "Validation").',
  );
}

interface Saxon {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
}
const saxon = (): Saxon => createRequire(import.meta.url)('saxon-js') as Saxon;

const stylesheets = new Map<string, unknown>();
const stylesheet = (syntax: 'cii' | 'ubl') => {
  if (!stylesheets.has(syntax)) {
    stylesheets.set(syntax, JSON.parse(readFileSync(join(validatorsDir!, syntax, `EN16931-${syntax.toUpperCase()}-validation.sef.json`), 'utf8')));
  }
  return stylesheets.get(syntax);
};

export interface FailedAssert { id: string; flag: string; location: string; text: string }

/** Every failed assertion of the EN 16931 rules on one CII or UBL document. */
export function en16931Failures(syntax: 'cii' | 'ubl', xml: string): FailedAssert[] {
  const { principalResult } = saxon().transform({ stylesheetInternal: stylesheet(syntax), sourceText: xml, destination: 'serialized' }, 'sync');
  return [...principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(([, attrs, body]) => {
    const attr = (n: string) => (attrs!.match(new RegExp(`${n}="([^"]*)"`)) ?? [])[1] ?? '';
    const text = (body!.match(/<svrl:text>([\s\S]*?)<\/svrl:text>/) ?? [])[1]?.replace(/\s+/g, ' ').trim() ?? '';
    return { id: attr('id'), flag: attr('flag'), location: attr('location'), text };
  });
}

/** The fatal ones, as `id: text` lines (an empty list is a valid document). */
export const fatal = (syntax: 'cii' | 'ubl', xml: string): string[] =>
  en16931Failures(syntax, xml).filter((f) => f.flag === 'fatal').map((f) => `${f.id} at ${f.location}: ${f.text}`);

const XSD_DIR = () => join(validatorsDir!, 'cii', 'schema', 'D16B', 'uncefact', 'data', 'standard');
const XSD_FILES = ['QualifiedDataType', 'ReusableAggregateBusinessInformationEntity', 'UnqualifiedDataType'].map((p) => `CrossIndustryInvoice_${p}_100pD16B.xsd`);

/** The errors of the CII against the CII D16B XML Schema (xmllint compiled to WebAssembly). */
export async function ciiSchemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = await import('xmllint-wasm');
  const read = (name: string) => ({ fileName: name, contents: readFileSync(join(XSD_DIR(), name), 'utf8') });
  const result = await validateXML({ xml: [{ fileName: 'invoice.xml', contents: xml }], schema: [read('CrossIndustryInvoice_100pD16B.xsd')], preload: XSD_FILES.map(read) });
  return result.errors.map((e) => e.rawMessage);
}
