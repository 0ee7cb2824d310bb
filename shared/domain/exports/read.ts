import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { fileStore } from '../../storage/file-store';
import { BinaryResponse } from '../../http/responses';
import { EXPORT, exportKey, toExport, type Export, type ExportItem } from './export';

export async function findExportItem(ctx: Ctx, id: string, consistent = false): Promise<ExportItem> {
  const item = await getItem<ExportItem>(exportKey(ctx, id), consistent);
  if (!item) throw new NotFound('export', id);
  return item;
}

export const getExport = async (ctx: Ctx, id: string): Promise<Export> => toExport(await findExportItem(ctx, id));

/** Oldest first, as every list. */
export const listExports = (ctx: Ctx, query: { take: number; skip: number }): Promise<Page<Export>> => listPage(ctx, EXPORT, query, toExport);

/** `GET /v1/exports/{id}/files/{index}`: the file as it was stored; 404 for a file the export does not have (yet). */
export async function exportFile(ctx: Ctx, id: string, index: number): Promise<BinaryResponse> {
  const file = (await findExportItem(ctx, id)).files[index];
  if (!file) throw new NotFound('file of export', `${id}/${index}`);
  const stored = await (await fileStore()).get(file.key);
  if (!stored) throw new NotFound('file of export', `${id}/${index}`);
  return new BinaryResponse(stored.body, stored.contentType, file.name.split('/').at(-1)!);
}
