import type { Logo } from './logo';

/** The invoicing entity's look on its documents: its brand colour and the stored copy of its logo. */
export interface Branding {
  /** The entity's `brand_color`, `#RGB` or `#RRGGBB`; null or anything else → a neutral dark. */
  brandColor: string | null;
  /** The copy of `logo_url` stored when it was set (rendering never reaches the network); none: no logo. */
  logo?: Logo | null;
  /** The entity's `timezone`: dates are the seller's calendar days. UTC when absent. */
  timezone?: string | null;
}

export interface Palette {
  /** Header band and accents, `#RRGGBB`. */
  accent: string;
  /** Text drawn on the accent: white on dark colours, near-black on light ones. */
  onAccent: string;
}

export const DEFAULT_BRAND_COLOR = '#1F2937';
const DARK_TEXT = '#111827';
const LIGHT_TEXT = '#FFFFFF';

/** `#RGB` or `#RRGGBB` as `#RRGGBB` (upper case), or null. */
export function normalizeColor(color: string | null | undefined): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color?.trim() ?? '');
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!;
  return `#${hex.toUpperCase()}`;
}

export function palette(brandColor: string | null | undefined): Palette {
  const accent = normalizeColor(brandColor) ?? DEFAULT_BRAND_COLOR;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16)) as [number, number, number];
  // Perceived brightness (ITU-R BT.601 weights), 0–255.
  const brightness = (299 * r + 587 * g + 114 * b) / 1000;
  return { accent, onAccent: brightness > 160 ? DARK_TEXT : LIGHT_TEXT };
}
