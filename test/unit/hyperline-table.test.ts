import { readdirSync, readFileSync } from 'node:fs';
import { routes } from '../../functions/routes';
import { EVENT_TYPES } from '../../shared/domain/events/catalog';

/** docs/hyperline.md's tables against the route table, the event catalog and the fixtures: they cannot drift. */
const doc = readFileSync('docs/hyperline.md', 'utf8');

function table(heading: string): { hyperline: string; ours: string; status: string; note: string }[] {
  const section = doc.split(`## ${heading}\n`)[1]!.split('\n## ')[0]!;
  return section.split('\n').filter((l) => l.startsWith('| `')).map((line) => {
    const [hyperline, ours, status, note] = line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').replace(/`/g, '').trim());
    return { hyperline: hyperline!, ours: ours!, status: status!, note: note ?? '' };
  });
}

const ourRoutes = new Set(routes.map((r) => `${r.method} ${r.path}`));
const fixtures = 'test/fixtures/hyperline';
const fixture = (name: string) => JSON.parse(readFileSync(`${fixtures}/${name}`, 'utf8'));

describe('docs/hyperline.md', () => {
  const routeRows = table('Routes');
  const eventRows = table('Events');

  it('names, for every Hyperline route, one of ours when it is the same or adapted, and a reason when absent', () => {
    expect(routeRows.length).toBeGreaterThan(30);
    for (const row of routeRows) {
      expect({ row: row.hyperline, status: ['same', 'adapted', 'absent'].includes(row.status) }).toEqual({ row: row.hyperline, status: true });
      if (row.status === 'absent') {
        expect({ row: row.hyperline, ours: row.ours, reason: row.note.length > 0, exists: ourRoutes.has(row.hyperline) }).toEqual({ row: row.hyperline, ours: '—', reason: true, exists: false });
      } else {
        expect({ row: row.hyperline, exists: ourRoutes.has(row.ours) }).toEqual({ row: row.hyperline, exists: true });
      }
      if (row.status === 'same') expect(row.ours).toBe(row.hyperline);
    }
  });

  it('lists exactly the routes of the inventory of Hyperline\'s reference, each once', () => {
    const listed = routeRows.map((r) => r.hyperline);
    expect(listed.filter((route, i) => listed.indexOf(route) !== i)).toEqual([]);
    expect([...listed].sort()).toEqual([...fixture('routes.json').routes].sort());
  });

  it('lists every route a fixture replays', () => {
    const replayed = readdirSync(fixtures).filter((f) => f.endsWith('.json')).map(fixture).filter((f) => typeof f.route === 'string');
    expect(replayed.length).toBeGreaterThan(14);
    for (const { route } of replayed) expect(routeRows.map((r) => r.hyperline)).toContain(route);
  });

  it("lists every Hyperline event of the inventory once, each in the catalog under its own name (same) or ours (adapted) unless absent (with a reason)", () => {
    expect(eventRows.map((r) => r.hyperline).sort()).toEqual([...fixture('webhook-events.json').events].sort());
    const catalog = new Set<string>(EVENT_TYPES);
    for (const row of eventRows) {
      expect({ row: row.hyperline, status: ['same', 'adapted', 'absent'].includes(row.status) }).toEqual({ row: row.hyperline, status: true });
      if (row.status === 'absent') expect({ row: row.hyperline, ours: row.ours, reason: row.note.length > 0, inCatalog: catalog.has(row.hyperline) }).toEqual({ row: row.hyperline, ours: '—', reason: true, inCatalog: false });
      else expect({ row: row.hyperline, inCatalog: catalog.has(row.ours) }).toEqual({ row: row.hyperline, inCatalog: true });
      // same: we emit Hyperline's very name; adapted: the same moment under another of ours.
      if (row.status === 'same') expect(row.ours).toBe(row.hyperline);
      if (row.status === 'adapted') expect({ row: row.hyperline, renamed: row.ours !== row.hyperline }).toEqual({ row: row.hyperline, renamed: true });
    }
  });
});
