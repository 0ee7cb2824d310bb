import { exactListMeta, listOf, routesOf, type RouteDefinition } from '../route-definition';
import { alertCreationBody, alertResource } from '../../shared/schemas/alerts';

const route = routesOf({ dir: 'alerts', tag: 'Alerts', schema: alertResource });

/** Usage and spend alerts (docs/usage-billing.md, "Alerts"). */
export const alertRoutes: RouteDefinition[] = [
  route('createAlert', 'POST', '/v1/alerts', 'create', 'Create a usage or spend alert', {
    description: 'Each threshold the watched value reaches emits `alert.triggered` once per customer, threshold and billing period.',
    request: { body: alertCreationBody }, response: { status: 201, schema: alertResource },
  }),
  route('listAlerts', 'GET', '/v1/alerts', 'list', 'List alerts', { request: {}, response: { status: 200, schema: listOf(alertResource, exactListMeta) }, indexes: [] }),
  route('getAlert', 'GET', '/v1/alerts/{id}', 'get', 'Get an alert', {}),
  route('deleteAlert', 'DELETE', '/v1/alerts/{id}', 'delete', 'Delete an alert', {}),
];
