import { newId, ulid } from '../../shared/ids';

describe('ids', () => {
  it('are <prefix>_<ULID> in Crockford base32', () => {
    expect(newId('cus')).toMatch(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('encode the time first, so they sort by creation', () => {
    expect(ulid(1_000).slice(0, 10) < ulid(2_000).slice(0, 10)).toBe(true);
    // 1767225600000 ms in Crockford base32, computed independently.
    expect(ulid(Date.UTC(2026, 0, 1)).slice(0, 10)).toBe('01KDVDNA00');
  });

  it('stay in creation order within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => ulid(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
