import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { exportCreateBody, exportFilePath, exportListQuery, exportResource } from '../../shared/schemas/exports';

const tag = 'Exports';

export const exportRoutes: RouteDefinition[] = [
  {
    id: 'createExport', method: 'POST', path: '/v1/exports', handler: 'functions/exports/create.ts', scope: 'write', tag,
    summary: 'Ask for an accounting journal (CSV, FEC, DATEV) or a data export (Parquet) of a period',
    description: 'Answers 202 with the export `pending`; it is made in the background and becomes `completed` (its `files` downloadable) or `failed` (its `error` says why), which emits `export.completed`. docs/accounting.md.',
    request: { body: exportCreateBody }, response: { status: 202, schema: exportResource },
  },
  {
    id: 'listExports', method: 'GET', path: '/v1/exports', handler: 'functions/exports/list.ts', scope: 'read', tag,
    summary: 'List exports', request: { query: exportListQuery }, response: { status: 200, schema: listOf(exportResource), list: true },
  },
  {
    id: 'getExport', method: 'GET', path: '/v1/exports/{id}', handler: 'functions/exports/get.ts', scope: 'read', tag,
    summary: 'Get an export', request: { path: idPath }, response: { status: 200, schema: exportResource },
  },
  {
    id: 'downloadExportFile', method: 'GET', path: '/v1/exports/{id}/files/{index}', handler: 'functions/exports/download.ts', scope: 'read', tag,
    summary: "Download one of an export's files (its `download_url`)",
    request: { path: exportFilePath },
    response: { status: 200, schema: { type: 'string', format: 'binary' }, mediaTypes: ['text/csv', 'text/plain', 'application/vnd.apache.parquet'] },
  },
];
