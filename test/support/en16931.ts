/**
 * The official EN 16931 validation artefacts (CEN/TC 434, release 1.3.16: the Schematron rules compiled for SaxonJS,
 * and the CII D16B schemas), found through EN16931_VALIDATORS_DIR (.ci/run sets it when ../shared/validators/en16931
 * exists). Each stylesheet is read once per test file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

export interface FailedAssert { id: string; flag: string; location: string; text: string }

/**
 * Every failed assertion of the EN 16931 rules on each document, in one child Node process (./en16931-validate.mjs)
 * that loads each stylesheet once: SaxonJS runs several times slower inside jest's VM.
 */
export function en16931Failures(documents: { syntax: 'cii' | 'ubl'; xml: string }[]): FailedAssert[][] {
  const script = fileURLToPath(new URL('./en16931-validate.mjs', import.meta.url));
  const out = execFileSync(process.execPath, [script, validatorsDir!], { input: JSON.stringify(documents), maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } });
  return JSON.parse(out.toString('utf8')) as FailedAssert[][];
}

/** The fatal ones, as `id at location: text` lines (an empty list is a valid document). */
export const fatalOnes = (failures: FailedAssert[]): string[] => failures.filter((f) => f.flag === 'fatal').map((f) => `${f.id} at ${f.location}: ${f.text}`);

const XSD_DIR = () => join(validatorsDir!, 'cii', 'schema', 'D16B', 'uncefact', 'data', 'standard');
const XSD_FILES = ['QualifiedDataType', 'ReusableAggregateBusinessInformationEntity', 'UnqualifiedDataType'].map((p) => `CrossIndustryInvoice_${p}_100pD16B.xsd`);

/** The errors of the CII against the CII D16B XML Schema (xmllint compiled to WebAssembly). */
export async function ciiSchemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = await import('xmllint-wasm');
  const read = (name: string) => ({ fileName: name, contents: readFileSync(join(XSD_DIR(), name), 'utf8') });
  const result = await validateXML({ xml: [{ fileName: 'invoice.xml', contents: xml }], schema: [read('CrossIndustryInvoice_100pD16B.xsd')], preload: XSD_FILES.map(read) });
  return result.errors.map((e) => e.rawMessage);
}
