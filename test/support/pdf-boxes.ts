/**
 * Where a PDF's words are, as poppler's `pdftotext -bbox-layout` reads them from the file: each word with its box
 * (points, origin top left) and the text line it belongs to. What a layout test needs to say that no two texts
 * overlap, that no word was cut, and that an amount stands on the row of its label.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WordBox {
  text: string;
  page: number;
  /** The index of its text line among the page's lines. */
  line: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);

/** Every word of the PDF with its box, page by page, line by line. */
export function wordBoxes(pdf: Buffer): WordBox[] {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-boxes-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    const xhtml = execFileSync('pdftotext', ['-bbox-layout', join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
    const words: WordBox[] = [];
    xhtml.split('<page ').slice(1).forEach((page, pageIndex) => {
      page.split('<line ').slice(1).forEach((line, lineIndex) => {
        for (const match of line.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
          const [, xMin, yMin, xMax, yMax, text] = match;
          words.push({ text: unescape(text!), page: pageIndex + 1, line: lineIndex, xMin: Number(xMin), yMin: Number(yMin), xMax: Number(xMax), yMax: Number(yMax) });
        }
      });
    });
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pairs of words on one page whose boxes cover each other by more than `tolerance` points both ways. */
export function overlaps(words: WordBox[], tolerance = 0.5): Array<[WordBox, WordBox]> {
  const found: Array<[WordBox, WordBox]> = [];
  // Top to bottom, page by page: a word is compared only with those starting above its bottom (a page has thousands).
  const sorted = [...words].sort((a, b) => a.page - b.page || a.yMin - b.yMin);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.page === a.page && sorted[j]!.yMin < a.yMax - tolerance; j++) {
      const b = sorted[j]!;
      const width = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const height = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      if (width > tolerance && height > tolerance) found.push([a, b]);
    }
  }
  return found;
}

/** Punctuation a word may carry at either end ("(10", "%)", "Tax:"): not part of what is checked. */
export const bareWord = (word: string): string => word.replace(/^[\s([{"“„'‘«]+|[\s)\]},.;:!?"”'’»]+$/gu, '');

/** The words of a text, bare. */
export const wordsOf = (text: string): string[] => text.split(/\s+/u).map(bareWord).filter((word) => word !== '');

/** The vertical middle of a word: two words whose middles are within a line's height stand on one row. */
const middle = (word: WordBox) => (word.yMin + word.yMax) / 2;

/**
 * Whether `label` and `value` are printed whole, each on one text line, side by side on the same row of one page
 * (the value to the right), as a totals row is.
 */
export function onOneRow(all: WordBox[], label: string, value: string): boolean {
  // Punctuation standing alone (French "Remise : …") is no word of either.
  const words = all.filter((word) => bareWord(word.text) !== '');
  const starts = (wanted: string[]) => words.flatMap((word, i) => {
    const run = words.slice(i, i + wanted.length);
    const whole = run.length === wanted.length && run.every((w, k) => w.page === word.page && w.line === word.line && bareWord(w.text) === wanted[k]);
    return whole ? [run] : [];
  });
  const labels = starts(wordsOf(label));
  const values = starts(wordsOf(value));
  return labels.some((l) => values.some((v) =>
    v[0]!.page === l[0]!.page && Math.abs(middle(v[0]!) - middle(l[0]!)) < 4 && v[0]!.xMin > l[l.length - 1]!.xMax));
}
