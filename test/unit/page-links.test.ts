/**
 * A hosted-page link has exactly one spelling (docs/hosted-pages.md): its MAC is 16 bytes in 22 base64url characters,
 * whose last one carries 4 padding bits that decoding ignores. Every other spelling of the same bytes is refused; the
 * same holds for the pages' form tokens (`<nonce>.<mac>`).
 */
import fc from 'fast-check';
import { checkFormToken, formToken } from '../../shared/pages/csrf';
import { signLink, verifyLink, type LinkClaims } from '../../shared/pages/links';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const now = new Date('2026-06-01T00:00:00Z');
const claimsOf = (id: string, generation: number): LinkClaims =>
  ({ kind: 'invoice', workspaceId: 'ws_links', id, generation, expiresAt: Math.floor(now.getTime() / 1000) + 3600 });

/** The 16 spellings of the MAC's last character (same 2 data bits, any 4 padding bits); the canonical one among them. */
function spellingsOf(token: string): string[] {
  const last = ALPHABET.indexOf(token.at(-1)!);
  return Array.from({ length: 16 }, (_, padding) => token.slice(0, -1) + ALPHABET[(last & 0b110000) | padding]);
}

describe('hosted-page link MACs', () => {
  it('accept the canonical spelling and refuse every other spelling of the same bytes', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('|')), fc.nat(1000), (id, generation) => {
        const token = signLink(claimsOf(id, generation));
        const spellings = spellingsOf(token);
        expect(spellings).toContain(token);
        for (const spelling of spellings) {
          // Every spelling decodes to the very same MAC: only the string tells them apart.
          expect(Buffer.from(spelling.split('.')[1]!, 'base64url')).toEqual(Buffer.from(token.split('.')[1]!, 'base64url'));
          if (spelling === token) expect(verifyLink(spelling, 'invoice', now)).toMatchObject({ id, generation });
          else expect(() => verifyLink(spelling, 'invoice', now)).toThrow('The link is invalid.');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('refuse a MAC with another first character (its bits are all the MAC’s)', () => {
    const token = signLink(claimsOf('inv_1', 0));
    const [payload, mac] = token.split('.') as [string, string];
    expect(() => verifyLink(`${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`, 'invoice', now)).toThrow('The link is invalid.');
  });

  it('hold for form tokens too: one spelling of a form token is accepted', () => {
    const link = signLink(claimsOf('inv_1', 0));
    const token = formToken(link, 'pay');
    const others = spellingsOf(token).filter((spelling) => spelling !== token);
    expect(others).toHaveLength(15);
    expect(checkFormToken(link, 'pay', token)).toBe(token.split('.')[0]);
    for (const spelling of others) expect(checkFormToken(link, 'pay', spelling)).toBeUndefined();
  });
});
