/**
 * The entity's logo (`logo_url`), fetched once when it is set or changed, under the SSRF rules of shared/net (https,
 * public addresses only, no redirect followed), checked (PNG or JPEG by its magic numbers, at most 1 MB, drawable by
 * pdfkit) and stored in the workspace's files. Documents, pages and emails use the stored copy: a logo whose source
 * went away still prints, and nothing renders from the network. What cannot be used is a 422 when set, with nothing
 * written (docs/invoice-pdf.md, "Logo").
 */
import { createHash } from 'node:crypto';
import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import type { DestinationPolicy } from '../../net/public-address';
import { safeRequest, type SafeResponse } from '../../net/safe-request';
import { fileStore, workspaceFileKey } from '../../storage/file-store';
import type { Logo, LogoType } from '../invoices/pdf/logo';

export const MAX_LOGO_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const starts = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

/** What the bytes are, from their magic numbers (whatever a server's content-type says): png, jpeg, svg or unknown. */
export function imageKind(bytes: Uint8Array): 'png' | 'jpeg' | 'svg' | 'unknown' {
  if (starts(bytes, PNG_SIGNATURE)) return 'png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  return 'unknown';
}

/** Where the stored copy is, and what it is. */
export interface StoredLogo {
  key: string;
  content_type: LogoType;
  size: number;
}

/**
 * Loopback (https to 127.0.0.1, localhost) only where the test suite or the local runtime says so, with a PEM
 * certificate authority to trust for a test's own https server (LOGO_FETCH_TEST_CA); neither is ever set on AWS.
 */
const policy = (): DestinationPolicy => ({ allowLoopback: process.env.LOGO_FETCH_ALLOW_LOOPBACK === 'true' });

const refuse = (code: string, url: string, why: string) => new RuleViolation(code, `logo_url ${url} ${why}.`);

/** Content types a server may give a logo: an image type or none in particular (the bytes decide which image it is). */
const ACCEPTED_CONTENT_TYPE = /^(image\/[\w.+-]+|application\/octet-stream|binary\/octet-stream)$/i;

async function download(url: string): Promise<SafeResponse> {
  if (!/^https:\/\//i.test(url)) throw refuse('logo_url_invalid', url, 'must use https');
  try {
    return await safeRequest(url, {
      method: 'GET',
      headers: { accept: 'image/png, image/jpeg' },
      timeoutMs: FETCH_TIMEOUT_MS,
      policy: policy(),
      maxResponseBytes: MAX_LOGO_BYTES + 1,
      ...(process.env.LOGO_FETCH_TEST_CA && { ca: process.env.LOGO_FETCH_TEST_CA }),
    });
  } catch (error) {
    throw refuse('logo_unreachable', url, `could not be fetched (${(error as Error).message})`);
  }
}

/** The logo at `url`, checked; a RuleViolation (422) says why it cannot be used. */
export async function fetchLogo(url: string): Promise<Logo> {
  const response = await download(url);
  if (response.status !== 200) throw refuse('logo_unreachable', url, `answered ${response.status}, not 200 (redirects are not followed)`);
  if (response.body.length > MAX_LOGO_BYTES) throw refuse('logo_too_large', url, `is larger than ${MAX_LOGO_BYTES} bytes (1 MB)`);
  const declared = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
  const kind = imageKind(response.body);
  if (kind === 'svg') {
    throw refuse('logo_svg_unsupported', url, 'is an SVG image: PDFs can draw PNG and JPEG only, so give the logo as PNG or JPEG');
  }
  if (kind === 'unknown' || (declared !== '' && !ACCEPTED_CONTENT_TYPE.test(declared))) {
    throw refuse('logo_wrong_type', url, `is not a PNG or JPEG image (content-type ${declared || 'none'}, ${kind === 'unknown' ? 'bytes of neither' : `bytes of a ${kind}`})`);
  }
  const logo: Logo = { body: response.body, contentType: kind === 'png' ? 'image/png' : 'image/jpeg' };
  // pdfkit loaded only here, as a module of its own beside the bundle (lib/bundling.ts): the entity routes' other
  // requests never need it (its start-up doubles a cold start).
  const { drawable } = await import('#lazy/pdf-logo');
  if (!(await drawable(logo))) throw refuse('logo_invalid', url, `is a damaged or unsupported ${kind.toUpperCase()} image`);
  return logo;
}

/** Stores the logo under its digest: a copy never changes, and setting the same image again writes the same file. */
export async function storeLogo(ctx: Ctx, entityId: string, logo: Logo): Promise<StoredLogo> {
  const digest = createHash('sha256').update(logo.body).digest('hex');
  const key = workspaceFileKey(ctx.workspaceId, 'logos', entityId, `${digest}.${logo.contentType === 'image/png' ? 'png' : 'jpg'}`);
  await (await fileStore()).put(key, logo.body, logo.contentType);
  return { key, content_type: logo.contentType, size: logo.body.length };
}

/** Fetches, checks and stores the logo of `url`; null clears it. */
export const logoFileFor = async (ctx: Ctx, entityId: string, url: string | null): Promise<StoredLogo | null> =>
  url === null ? null : storeLogo(ctx, entityId, await fetchLogo(url));

/** The stored copy of an entity's logo; none when it has none (or the copy is missing: the document prints without). */
export async function readLogo(entity: { logo_file?: StoredLogo | null } | null | undefined): Promise<Logo | null> {
  const stored = entity?.logo_file;
  if (!stored) return null;
  const file = await (await fileStore()).get(stored.key);
  return file ? { body: file.body, contentType: stored.content_type } : null;
}
