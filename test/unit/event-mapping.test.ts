import { makeCtx } from '../../shared/context';
import { newCustomerItem, toCustomer, type CustomerItem } from '../../shared/domain/customers/customer';
import { workspaceOf } from '../../shared/db/keys';
import { mapChange } from '../../shared/domain/events/map-change';
import { newEntityItem, toInvoicingEntity } from '../../shared/domain/invoicing-entities/invoicing-entity';

const ctx = makeCtx('ws_map', 'req');
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const customer = (): CustomerItem => ({ ...newCustomerItem(ctx, 'cus_1', t0), name: 'Jane', invoicing_entity_id: 'ive_1' });
const types = (before: object | undefined, after: object | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('mapChange: customers', () => {
  it('maps an insert to customer.created with the public representation', () => {
    const events = mapChange(undefined, customer() as never);
    expect(events).toEqual([{ type: 'customer.created', data: toCustomer(customer()) }]);
    expect(events[0]!.data).not.toHaveProperty('pk');
  });

  it('maps a visible change to customer.updated', () => {
    expect(types(customer(), { ...customer(), name: 'Janet', updated_at: t1 })).toEqual(['customer.updated']);
  });

  it('maps status moves to archived and unarchived, a soft delete to deleted', () => {
    const archived = { ...customer(), status: 'archived', updated_at: t1 };
    expect(types(customer(), archived)).toEqual(['customer.archived']);
    expect(types(archived, { ...archived, status: 'active' })).toEqual(['customer.unarchived', 'customer.recovered']);
    expect(types(customer(), { ...customer(), deleted_at: t1, updated_at: t1 })).toEqual(['customer.deleted']);
  });

  it('maps billing_email_status leaving ok (a bounce or complaint) to email_bounced, once; its return to ok with a new address to updated', () => {
    const { billing_email_status: _absent, ...older } = { ...customer(), billing_email: 'ap@buyer.test' };
    const bounced = { ...older, billing_email_status: 'bounced', updated_at: t1, _version: 1 };
    expect(types(older, bounced)).toEqual(['customer.email_bounced']);
    expect(types(customer(), { ...customer(), billing_email_status: 'complained', updated_at: t1 })).toEqual(['customer.email_bounced']);
    expect(types(bounced, { ...bounced, billing_email_status: 'complained' })).toEqual(['customer.email_bounced']);
    expect(types(bounced, { ...bounced, _version: 2 })).toEqual([]);
    expect(types(bounced, { ...bounced, billing_email: 'new@buyer.test', billing_email_status: 'ok' })).toEqual(['customer.updated']);
  });

  it('emits nothing when nothing visible changed (a currency lock, a version bump)', () => {
    expect(types(customer(), { ...customer(), currency_locks: new Set(['wallet']), _version: 3 })).toEqual([]);
  });

  it('emits nothing for a hard delete (no new image): the API never hard-deletes customers', () => {
    expect(types(customer(), undefined)).toEqual([]);
  });
});

describe('mapChange: invoicing entities', () => {
  const entity = () => ({ ...newEntityItem(ctx, 'ive_1', { name: 'Acme', country: 'FR', currency: 'EUR' }, t0) });

  it('maps an insert to invoicing_entity.created and a change to invoicing_entity.updated', () => {
    expect(mapChange(undefined, entity() as never)).toEqual([{ type: 'invoicing_entity.created', data: toInvoicingEntity(entity()) }]);
    expect(types(entity(), { ...entity(), is_default: true, updated_at: t1 })).toEqual(['invoicing_entity.updated']);
  });
});

describe('mapChange: items that are not events', () => {
  it.each(['webhook_message', 'event', 'webhook_delivery', 'webhook_attempt', 'webhook_endpoint', 'setting', 'oauth_client', undefined])(
    'ignores %s items, so the stream never feeds on its own output',
    (type) => {
      expect(mapChange(undefined, { pk: 'WS#ws_map#MSG', sk: 'msg_1', _type: type })).toEqual([]);
    },
  );
});

describe('workspaceOf', () => {
  it('reads the workspace from a key', () => {
    expect(workspaceOf('WS#ws_abc#CUS#cus_1')).toBe('ws_abc');
    expect(workspaceOf('nothing')).toBeUndefined();
  });
});
