import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { alertCreationBody, alertResource } from '../../shared/schemas/alerts';

const tag = 'Alerts';

/** Usage and spend alerts (docs/usage-billing.md, "Alerts"). */
export const alertRoutes: RouteDefinition[] = [
  {
    id: 'createAlert', method: 'POST', path: '/v1/alerts', handler: 'functions/alerts/create.ts', scope: 'write', tag,
    summary: 'Create a usage or spend alert',
    description: 'Each threshold the watched value reaches emits `alert.triggered` once per customer, threshold and billing period.',
    request: { body: alertCreationBody }, response: { status: 201, schema: alertResource },
  },
  {
    id: 'listAlerts', method: 'GET', path: '/v1/alerts', handler: 'functions/alerts/list.ts', scope: 'read', tag,
    summary: 'List alerts', request: {}, response: { status: 200, schema: listOf(alertResource, exactListMeta) }, indexes: [],
  },
  {
    id: 'getAlert', method: 'GET', path: '/v1/alerts/{id}', handler: 'functions/alerts/get.ts', scope: 'read', tag,
    summary: 'Get an alert', request: { path: idPath }, response: { status: 200, schema: alertResource },
  },
  {
    id: 'deleteAlert', method: 'DELETE', path: '/v1/alerts/{id}', handler: 'functions/alerts/delete.ts', scope: 'write', tag,
    summary: 'Delete an alert', request: { path: idPath }, response: { status: 200, schema: alertResource },
  },
];
