import { createHmac } from 'node:crypto';
import { workspaceOf } from '../db/keys';
import { linkKey } from './link-key';
import { macMatches } from './mac';

/**
 * Capability links of the hosted pages (docs/hosted-pages.md): `<PUBLIC_PAGES_URL>/<kind path>/<token>`, where the
 * token names one document or one portal session of one workspace, with an expiry and a generation (revocation), and
 * carries an HMAC-SHA256 of all that under the deployment's secret (link-key.ts). Whoever holds the link may see that
 * document (or that customer's portal) and nothing else; nobody can make one for another document or workspace.
 */
export type LinkKind = 'invoice' | 'quote' | 'portal';

const KIND_CODE: Record<LinkKind, string> = { invoice: 'i', quote: 'q', portal: 'p' };
const KIND_PATH: Record<LinkKind, string> = { invoice: 'invoices', quote: 'quotes', portal: 'portal' };

export interface LinkClaims {
  kind: LinkKind;
  workspaceId: string;
  /** The invoice, quote or portal session. */
  id: string;
  /** Revocation: a document's links carry its `link_generation`; revoking moves it on, so older links stop working. */
  generation: number;
  /** Epoch seconds. */
  expiresAt: number;
}

/** 128 bits of HMAC: forging a link means guessing them. */
const MAC_BYTES = 16;

const mac = (payload: string): Buffer => createHmac('sha256', linkKey()).update(payload).digest().subarray(0, MAC_BYTES);

export function signLink(claims: LinkClaims): string {
  const payload = Buffer.from([KIND_CODE[claims.kind], claims.workspaceId, claims.id, claims.generation, claims.expiresAt].join('|')).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

export type LinkRefusal = 'invalid' | 'expired';

export class LinkRefused extends Error {
  constructor(readonly reason: LinkRefusal) {
    super(`The link is ${reason}.`);
  }
}

const SAFE = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{22}$/;

/** The claims of a genuine, unexpired link of `kind`; else LinkRefused (the signature is checked before anything is read). */
export function verifyLink(token: string, kind: LinkKind, now: Date): LinkClaims {
  if (!SAFE.test(token)) throw new LinkRefused('invalid');
  const [payload, given] = token.split('.') as [string, string];
  if (!macMatches(given, mac(payload))) throw new LinkRefused('invalid');
  const [code, workspaceId, id, generation, expiresAt] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  if (code !== KIND_CODE[kind] || !workspaceId || !id) throw new LinkRefused('invalid');
  const claims: LinkClaims = { kind, workspaceId, id, generation: Number(generation), expiresAt: Number(expiresAt) };
  if (!Number.isSafeInteger(claims.generation) || !Number.isSafeInteger(claims.expiresAt)) throw new LinkRefused('invalid');
  if (claims.expiresAt * 1000 <= now.getTime()) throw new LinkRefused('expired');
  return claims;
}

/**
 * Where the hosted pages are served: `PUBLIC_PAGES_URL` (on AWS the API's URL + `/pages`, a stack output), else the
 * API's public URL + `/pages` (the local server sets `PUBLIC_API_URL`).
 */
export const pagesBaseUrl = (): string =>
  (process.env.PUBLIC_PAGES_URL ?? (process.env.PUBLIC_API_URL ? `${process.env.PUBLIC_API_URL.replace(/\/$/, '')}/pages` : 'https://pay.billing.invalid/pages')).replace(/\/$/, '');

export const linkUrl = (claims: LinkClaims): string => `${pagesBaseUrl()}/${KIND_PATH[claims.kind]}/${signLink(claims)}`;

/** The workspace of a stored item, from its key (`WS#<workspace>#…`): what a link of that item names. */
export function workspaceOfKey(pk: string): string {
  const workspace = workspaceOf(pk);
  if (!workspace) throw new Error(`Not a workspace key: ${pk}`);
  return workspace;
}

const DAY_SECONDS = 86_400;
/** Epoch seconds of a date-time; a missing one is the epoch (a link that is already expired). */
const seconds = (iso: string | null | undefined): number => Math.floor((iso ? Date.parse(iso) : 0) / 1000) || 0;

/** Documented lifetimes (docs/hosted-pages.md). Deterministic: reading a document twice gives the same link. */
export const LINK_LIFETIMES = {
  /** An invoice or credit note: until 180 days after its due date. */
  invoiceDaysAfterDue: 180,
  /** A quote: 180 days after its creation, or until it expires if that is later. */
  quoteDaysAfterCreation: 180,
  /** A portal session: one hour. */
  portalSeconds: 3_600,
} as const;

export const invoiceLinkExpiry = (item: { due_at: string | null; emitted_at: string }): number =>
  seconds(item.due_at ?? item.emitted_at) + LINK_LIFETIMES.invoiceDaysAfterDue * DAY_SECONDS;

export const quoteLinkExpiry = (item: { created_at: string; expires_at: string | null }): number =>
  Math.max(seconds(item.created_at) + LINK_LIFETIMES.quoteDaysAfterCreation * DAY_SECONDS, item.expires_at ? seconds(item.expires_at) : 0);
