import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { dueIndexKeys, entityKey, listIndexKeys } from '../../db/keys';

export const EXPORT = 'EXP';

/** The kind of due work (gsi4sk `<due at>#export#<id>`) that produces an export's files (docs/accounting.md). */
export const EXPORT_WORK = 'export';

export const EXPORT_KINDS = ['journal', 'data'] as const;
export const EXPORT_FORMATS = ['csv', 'fec', 'datev', 'parquet'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Which formats each kind is written in. */
export const FORMATS_OF: Record<ExportKind, readonly ExportFormat[]> = { journal: ['csv', 'fec', 'datev'], data: ['parquet'] };

export interface ExportFile {
  /** The file's name (a FEC: `<SIREN>FEC<YYYYMMDD>.txt`) or its path in the data layout (`table=invoices/date=…/part-0.parquet`). */
  name: string;
  content_type: string;
  size: number;
  /** Journal lines, or table rows. */
  rows: number;
  invoicing_entity_id: string | null;
  /** Where the file store keeps it (not returned). */
  key: string;
}

export interface ExportItem extends StoredItem {
  _type: 'export';
  id: string;
  kind: ExportKind;
  format: ExportFormat;
  /** Calendar days (UTC), both included. */
  period: { from: string; to: string };
  invoicing_entity_id: string | null;
  status: 'pending' | 'completed' | 'failed';
  /** `api`: asked for; `daily`: the daily data export of the day before. */
  trigger: 'api' | 'daily';
  files: ExportFile[];
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  gsi4pk?: string;
  gsi4sk?: string;
}

/** Stores one file of an export and records it (run.ts makes it; journal-files.ts and data-files.ts write through it). */
export type FileWriter = (name: string, body: Uint8Array, contentType: string, rows: number, entityId: string | null) => Promise<void>;

/** The first instant after the period's last day: an export takes [from, to + 1 day). */
export const periodEnd = (to: string): string => new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString();

export const exportKey = (ctx: Ctx, id: string) => entityKey(ctx, EXPORT, id);

/** A new pending export: listed, and due now in the scheduling index, where the due work finds it. */
export function newExportItem(ctx: Ctx, id: string, members: Pick<ExportItem, 'kind' | 'format' | 'period' | 'invoicing_entity_id' | 'trigger'>): ExportItem {
  const now = ctx.clock.now().toISOString();
  return {
    ...exportKey(ctx, id), ...listIndexKeys(ctx, EXPORT, now, id), ...dueIndexKeys(ctx, now, EXPORT_WORK, id),
    _type: 'export', _version: 0, id, ...members, status: 'pending', files: [], error: null, created_at: now, updated_at: now, completed_at: null,
  };
}

/** The public export: its files with the route that downloads each. */
export const toExport = (item: ExportItem) => ({
  id: item.id,
  kind: item.kind,
  format: item.format,
  period: item.period,
  invoicing_entity_id: item.invoicing_entity_id,
  status: item.status,
  trigger: item.trigger,
  files: item.files.map(({ key: _key, ...file }, index) => ({ ...file, download_url: `/v1/exports/${item.id}/files/${index}` })),
  error: item.error,
  created_at: item.created_at,
  updated_at: item.updated_at,
  completed_at: item.completed_at,
});

export type Export = ReturnType<typeof toExport>;
