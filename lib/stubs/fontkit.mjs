// pdfkit imports fontkit to read font files; invoices use the built-in Helvetica, or (Factur-X) font objects of their
// own that pdfkit takes without fontkit (shared/domain/invoices/pdf/fonts.ts), so nothing calls it.
// Aliased in place of fontkit when bundling (lib/bundling.ts): ~720 KB less per PDF bundle.
export function create() {
  throw new Error('Embedded fonts are not bundled: only the built-in PDF fonts are available.');
}
