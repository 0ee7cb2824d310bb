/**
 * Reads back what a PDF shows, enough to test documents made with pdfkit's standard fonts: every stream
 * (inflated when `/FlateDecode`), and the text of the text-showing operators in the content streams, decoded
 * from WinAnsi. pdfkit writes each laid-out line as one `[<hex> kern <hex> …] TJ` array; `<hex> Tj` and
 * `(literal) Tj` are read too. Kerning numbers move glyphs, they are not spaces, so they are skipped.
 */
import { inflateSync } from 'node:zlib';

export interface PdfContent {
  /** One entry per text-showing operator (a laid-out line), in content-stream order. */
  lines: string[];
  /** The lines joined with newlines. */
  text: string;
  /** The decoded content streams (those with text or drawing operators): colours, rectangles, text objects. */
  contentStreams: string[];
  /** How many streams were deflated. */
  compressedStreams: number;
}

/** WinAnsiEncoding where it differs from Latin-1 (0x80–0x9F). */
const WIN_ANSI: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹',
  0x8c: 'Œ', 0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™',
  0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

const winAnsi = (bytes: number[]): string => bytes.map((b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join('');

function hexBytes(hex: string): number[] {
  const digits = hex.replace(/\s+/g, '');
  const even = digits.length % 2 === 0 ? digits : `${digits}0`;
  const bytes: number[] = [];
  for (let i = 0; i < even.length; i += 2) bytes.push(parseInt(even.slice(i, i + 2), 16));
  return bytes;
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

/** A literal string's bytes (without its parentheses): escapes and octal codes. */
function literalBytes(literal: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < literal.length; i += 1) {
    const c = literal[i]!;
    if (c !== '\\') {
      bytes.push(c.charCodeAt(0));
      continue;
    }
    const next = literal[i + 1] ?? '';
    const octal = /^[0-7]{1,3}/.exec(literal.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else {
      if (next in ESCAPES) bytes.push(ESCAPES[next]!);
      i += 1;
    }
  }
  return bytes;
}

/** The strings of one TJ array or Tj operand, concatenated. */
function showText(operand: string): string {
  const parts = operand.match(/<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)/g) ?? [];
  return parts.map((part) => winAnsi(part.startsWith('<') ? hexBytes(part.slice(1, -1)) : literalBytes(part.slice(1, -1)))).join('');
}

const TEXT_OPERATORS = /\[((?:<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)|[-+.\d\s])*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\))\s*(?:Tj|'|")/g;

/** The text-showing operators of one content stream, in order. */
export function textOf(content: string): string[] {
  return [...content.matchAll(TEXT_OPERATORS)].map((m) => showText(m[1] ?? m[2]!));
}

/** Every stream of the file, decoded: an object whose dictionary is followed by `stream`, read for its `/Length`. */
function streams(pdf: Buffer): { data: string; compressed: boolean }[] {
  const source = pdf.toString('latin1');
  const found: { data: string; compressed: boolean }[] = [];
  const start = /\d+\s+\d+\s+obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let m = start.exec(source); m; m = start.exec(source)) {
    const dictionary = m[1]!;
    const begin = m.index + m[0].length;
    const declared = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dictionary);
    const end = declared ? begin + Number(declared[1]) : source.indexOf('endstream', begin);
    const raw = pdf.subarray(begin, end);
    const compressed = /\/Filter\s*(\[\s*)?\/FlateDecode/.test(dictionary);
    found.push({ data: (compressed ? inflateSync(raw) : raw).toString('latin1'), compressed });
    start.lastIndex = end;
  }
  return found;
}

export function readPdf(pdf: Uint8Array): PdfContent {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('not a PDF: it does not start with %PDF-');
  const all = streams(bytes);
  const contentStreams = all.map((s) => s.data).filter((data) => /\b(BT|re|cs|rg|scn)\b/.test(data));
  const lines = contentStreams.flatMap(textOf);
  return { lines, text: lines.join('\n'), contentStreams, compressedStreams: all.filter((s) => s.compressed).length };
}
