import { listOf, routesOf, type RouteDefinition } from '../route-definition';
import { exportCreateBody, exportFilePath, exportListQuery, exportResource } from '../../shared/schemas/exports';

const route = routesOf({ dir: 'exports', tag: 'Exports', schema: exportResource });

/** Accounting journals and data exports, made in the background (docs/accounting.md). */
export const exportRoutes: RouteDefinition[] = [
  route('createExport', 'POST', '/v1/exports', 'create', 'Ask for an accounting journal (CSV, FEC, DATEV) or a data export (Parquet) of a period', {
    description: 'Answers 202 with the export `pending`; it is made in the background and becomes `completed` (its `files` downloadable) or `failed` (its `error` says why), which emits `export.completed`. docs/accounting.md.',
    request: { body: exportCreateBody }, response: { status: 202, schema: exportResource },
  }),
  route('listExports', 'GET', '/v1/exports', 'list', 'List exports', { request: { query: exportListQuery }, response: { status: 200, schema: listOf(exportResource), list: true } }),
  route('getExport', 'GET', '/v1/exports/{id}', 'get', 'Get an export', {}),
  route('downloadExportFile', 'GET', '/v1/exports/{id}/files/{index}', 'download', "Download one of an export's files (its `download_url`)", {
    request: { path: exportFilePath },
    response: { status: 200, schema: { type: 'string', format: 'binary' }, mediaTypes: ['text/csv', 'text/plain', 'application/vnd.apache.parquet'] },
  }),
];
