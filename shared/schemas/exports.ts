import { EXPORT_FORMATS, EXPORT_KINDS } from '../domain/exports/export';
import { date, enumOf, id, nullable, object, out, resource, arrayOf, nullableResource, type Schema } from './common';
import { pagingQuery } from './list-query';

const period = object({ from: date, to: date }, ['from', 'to']);

export const exportCreateBody: Schema = {
  ...object({
    kind: { type: 'string', enum: [...EXPORT_KINDS], description: '`journal`: the accounting journal (csv, fec, datev); `data`: the tables as Parquet.' },
    format: { type: 'string', enum: [...EXPORT_FORMATS] },
    period: { ...period, description: 'Calendar days (UTC), both included: `{from: "2026-11-01", to: "2026-11-30"}`. Or give `from` and `to` beside `kind`.' },
    from: date,
    to: date,
    invoicing_entity_id: { ...nullable(id), description: 'Only this entity; absent: every entity, one file each (a journal), or all (data).' },
    daily: { type: 'boolean', description: 'Data exports only: true also exports every following day (the day before, each night); false stops that.' },
  }, ['kind', 'format']),
};

const exportFile = resource({
  name: out.string, content_type: out.string, size: out.integer, rows: out.integer, invoicing_entity_id: out.nullableString,
  download_url: { type: 'string', description: 'GET it with the same credential.' },
});

export const exportResource: Schema = resource({
  id: out.string,
  kind: enumOf(EXPORT_KINDS),
  format: enumOf(EXPORT_FORMATS),
  period: resource({ from: out.string, to: out.string }),
  invoicing_entity_id: out.nullableString,
  status: enumOf(['pending', 'completed', 'failed']),
  trigger: enumOf(['api', 'daily']),
  files: arrayOf(exportFile),
  error: nullableResource(resource({ code: out.string, message: out.string })),
  created_at: out.dateTime,
  updated_at: out.dateTime,
  completed_at: out.nullableDateTime,
});

export const exportListQuery: Schema = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

export const exportFilePath: Schema = object({ id, index: { type: 'string', pattern: '^[0-9]{1,5}$' } }, ['id', 'index']);
