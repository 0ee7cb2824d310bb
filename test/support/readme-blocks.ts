/**
 * The README's walkthroughs as a test reads them (README, "Testing notes"): its ```sh blocks in order, each with the
 * output shown in the ```json or ```text block right after it (only blank lines between), if any.
 */

/** The base URL the README's commands call; the test substitutes the running server's. */
export const README_BASE_URL = 'http://127.0.0.1:3000';
/** The key the README stands for by `sk_test_…`: the reader pastes the one `npm start` printed. */
export const README_KEY_PLACEHOLDER = 'sk_test_…';
/** A block preceded by this line (any reason in the parentheses) cannot run on this machine and is not run. */
const SKIP_MARKER = /^<!-- readme-test: skip \(.+\) -->$/;
/** Lines the test does not run: `npm start` is what the test starts itself, install and test are how it runs. */
const NOT_RUN = /^\s*npm (install|ci|start|test)\b/;

export interface WalkthroughBlock {
  /** Line of the opening fence in README.md (1-based). */
  line: number;
  script: string;
  expected?: string;
}

interface Fence {
  lang: string;
  open: number;
  close: number;
  content: string;
}

function fences(lines: string[]): Fence[] {
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!opening) continue;
    const close = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line));
    if (close < 0) throw new Error(`README.md:${i + 1}: a code block is never closed`);
    found.push({ lang: opening[1]!, open: i, close, content: lines.slice(i + 1, close).join('\n') });
    i = close;
  }
  return found;
}

/** The ```sh blocks to run, without the lines not run, and the output each shows. */
export function walkthroughBlocks(markdown: string): WalkthroughBlock[] {
  const lines = markdown.split('\n');
  const all = fences(lines);
  return all.flatMap((fence, index) => {
    if (fence.lang !== 'sh' || SKIP_MARKER.test(lines[fence.open - 1] ?? '')) return [];
    const script = fence.content.split('\n').filter((line) => !NOT_RUN.test(line)).join('\n');
    if (!script.trim()) return [];
    const next = all[index + 1];
    const adjacent = next && (next.lang === 'json' || next.lang === 'text') && lines.slice(fence.close + 1, next.open).every((line) => !line.trim());
    return [{ line: fence.open + 1, script, ...(adjacent && { expected: next.content }) }];
  });
}

/**
 * What changes from run to run, replaced by its form: the servers' base URLs by the README's, hosted-page links,
 * keys and secrets, JWTs, ids (prefix_ and a ULID), date-times and dates. Trailing blanks are dropped.
 */
export function stableForm(output: string, baseUrls: string[] = []): string {
  let text = output;
  for (const url of baseUrls) text = text.split(url).join(README_BASE_URL);
  return text
    .replace(/(\/pages\/[a-z-]+\/)[\w.-]+/g, '$1<link>')
    .replace(/\b(sk_test|sk_live|whsec)_[\w+/=]+/g, '$1_<secret>')
    .replace(/\beyJ[\w-]*\.[\w-]+\.[\w-]+/g, '<jwt>')
    .replace(/\b([a-z]+)_[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1_<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, '<date-time>')
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}
