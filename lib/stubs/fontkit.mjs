// pdfkit imports fontkit to embed font files; invoices use only the built-in Helvetica fonts, so nothing calls it.
// Aliased in place of fontkit when bundling (lib/bundling.ts): ~720 KB less per PDF bundle.
export function create() {
  throw new Error('Embedded fonts are not bundled: only the built-in PDF fonts are available.');
}
