import { buildFilter, type FilterSpec } from '../../shared/schemas/list-query';

const spec: FilterSpec = { name: { kind: 'string' }, status: { kind: 'enum', values: ['active', 'archived'] }, created_at: { kind: 'date' } };
const rows = [
  { name: 'Alpha', status: 'active', created_at: '2026-01-01T10:00:00.000Z' },
  { name: 'beta', status: 'archived', created_at: '2026-01-02T00:00:00.000Z' },
  { name: null, status: 'active', created_at: '2026-01-03T00:00:00.000Z' },
];
const names = (query: Record<string, unknown>) => rows.filter(buildFilter(spec, query) ?? (() => true)).map((r) => r.name);

describe('buildFilter', () => {
  it('has no filter for paging alone', () => {
    expect(buildFilter(spec, { take: 10, skip: 0 })).toBeUndefined();
  });

  it('matches text without case for contains/starts/ends, exactly for equality', () => {
    expect(names({ name__contains: 'ET' })).toEqual(['beta']);
    expect(names({ name: 'alpha' })).toEqual([]);
    expect(names({ name__equals: 'Alpha' })).toEqual(['Alpha']);
    expect(names({ name__not: 'Alpha' })).toEqual(['beta', null]);
  });

  it('tests null with true and false', () => {
    expect(names({ name__isNull: true })).toEqual([null]);
    expect(names({ name__isNull: false })).toEqual(['Alpha', 'beta']);
    expect(names({ name__isNotNull: true })).toEqual(['Alpha', 'beta']);
  });

  it('compares dates as instants; a bare date is its first millisecond UTC', () => {
    expect(names({ created_at__gte: '2026-01-02' })).toEqual(['beta', null]);
    expect(names({ created_at__lt: '2026-01-02T00:00:00.000Z' })).toEqual(['Alpha']);
    expect(names({ created_at__lte: '2026-01-02T01:00:00+01:00' })).toEqual(['Alpha', 'beta']);
  });

  it('combines filters with AND', () => {
    expect(names({ status__in: 'active,archived', name__startsWith: 'b' })).toEqual(['beta']);
    expect(names({ status__notIn: 'archived', name__isNotNull: true })).toEqual(['Alpha']);
  });
});
