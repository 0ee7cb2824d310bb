import { Webhook } from 'standardwebhooks';
import { generateSecret, secretKey, signatureHeaders } from '../../shared/domain/webhooks/signature';

/** Verified with the `standardwebhooks` package: an implementation of the scheme that is not ours. */
describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ event_type: 'customer.created', data: { id: 'cus_1' } });
  const now = Math.floor(Date.now() / 1000);

  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('refuses secrets that are not whsec_ + base64 of 24 to 64 bytes', () => {
    expect(secretKey('whsec_' + Buffer.alloc(16).toString('base64'))).toBeUndefined();
    expect(secretKey('whsec_' + Buffer.alloc(65).toString('base64'))).toBeUndefined();
    expect(secretKey('sk_' + Buffer.alloc(32).toString('base64'))).toBeUndefined();
    expect(secretKey('whsec_not base64!')).toBeUndefined();
  });

  it('produces headers that the reference implementation verifies', () => {
    const secret = generateSecret();
    const headers = signatureHeaders('msg_1', now, body, [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fails verification for a changed body, another secret, or another id', () => {
    const secret = generateSecret();
    const headers = signatureHeaders('msg_1', now, body, [secret]);
    expect(() => new Webhook(secret).verify(body.replace('cus_1', 'cus_2'), headers)).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('signs with both secrets during a rotation, so either verifies', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const headers = signatureHeaders('msg_1', now, body, [current, previous]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
