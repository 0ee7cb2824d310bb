/**
 * The official EN 16931 validation artefacts (CEN/TC 434, release 1.3.16: the Schematron rules compiled for SaxonJS,
 * and the CII D16B schemas), found through EN16931_VALIDATORS_DIR (.ci/run sets it when ../shared/validators/en16931
 * exists). Each stylesheet is read once per batch.
 */
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
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
export interface Validation { failures: FailedAssert[]; schemaErrors?: string[] }

/** One child Node process (./en16931-validate.mjs) validating documents of one syntax, loading its stylesheet once. */
function validateInChild(syntax: 'cii' | 'ubl', documents: string[], xsd: boolean): Promise<Validation[]> {
  const script = fileURLToPath(new URL('./en16931-validate.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, validatorsDir!, syntax, ...(xsd ? ['--xsd'] : [])], { env: { ...process.env, NODE_OPTIONS: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`en16931-validate.mjs ${syntax} exited with ${code}: ${Buffer.concat(err).toString('utf8')}`));
      else resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as Validation[]);
    });
    child.stdin.end(JSON.stringify(documents));
  });
}

/**
 * The EN 16931 rules on each document pair, CII and UBL in two processes side by side (SaxonJS runs several times
 * slower inside jest's VM), and each CII against the CII D16B XML Schema (xmllint-wasm).
 */
export async function validateEInvoices(documents: { cii: string; ubl: string }[]): Promise<{ cii: Validation; ubl: Validation }[]> {
  const [cii, ubl] = await Promise.all([validateInChild('cii', documents.map((d) => d.cii), true), validateInChild('ubl', documents.map((d) => d.ubl), false)]);
  return documents.map((_, i) => ({ cii: cii[i]!, ubl: ubl[i]! }));
}

/** The fatal ones, as `id at location: text` lines (an empty list is a valid document). */
export const fatalOnes = (failures: FailedAssert[]): string[] => failures.filter((f) => f.flag === 'fatal').map((f) => `${f.id} at ${f.location}: ${f.text}`);
