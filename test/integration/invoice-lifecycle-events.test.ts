import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';

let api: TestApi;
let client: Client;
const clock = movableClock();
const DAY = 86_400_000;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client, { invoice_grace_period_duration: 2 });
});
afterAll(async () => {
  await api.close();
  clock.restore();
});
/** Scheduled work of this file's workspace only: other test files share the table. */
const mine = () => ({ workspaces: new Set([client.workspace]) });

const eventsOf = async (id: string) => {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string; status: string } } }>;
  return messages.filter((m) => m.payload.data.id === id).map((m) => [m.payload.event_type, m.payload.data.status]).reverse();
};

describe('grace period and invoice events', () => {
  it('moves grace_period → to_pay once the grace period has passed, once, and tells every step', async () => {
    const buyer = (await client.post('/v1/customers', { name: 'Grace', currency: 'EUR' })).body;
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'A', unit_amount: 1_000 }] })).body;
    const issued = (await client.post(`/v1/invoices/${draft.id}/validate`)).body;
    expect(issued.status).toBe('grace_period');

    clock.advance(DAY);
    await runDueWork(clock.now(), mine());
    expect((await client.get(`/v1/invoices/${draft.id}`)).body.status).toBe('grace_period');

    clock.advance(DAY + 60_000);
    await Promise.all([runDueWork(clock.now(), mine()), runDueWork(clock.now(), mine())]);
    expect((await client.get(`/v1/invoices/${draft.id}`)).body.status).toBe('to_pay');
    expect((await runDueWork(clock.now(), mine())).due).toBe(0);

    await client.post(`/v1/invoices/${draft.id}/transactions`, { amount: 1_200 });
    expect(await eventsOf(draft.id)).toEqual([
      ['invoice.created', 'draft'], ['invoice.grace_period.started', 'grace_period'], ['invoice.ready', 'to_pay'], ['invoice.settled', 'paid'],
    ]);
  });

  it('tells a failed charge, a void and the credit notes', async () => {
    const buyer = (await client.post('/v1/customers', { name: 'Events', currency: 'EUR' })).body;
    await client.post(`/v1/customers/${buyer.id}/payment-methods`, { token: 'tok_chargeDeclined' });
    const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 1_000 }] })).body;
    await client.post(`/v1/invoices/${invoice.id}/charge`);
    // The two events of one write share its time: their order between themselves is not defined.
    const events = await eventsOf(invoice.id);
    expect(events.slice(0, 2).sort()).toEqual([['invoice.created', 'to_pay'], ['invoice.ready', 'to_pay']]);
    expect(events.slice(2)).toEqual([['invoice.errored', 'error']]);
    const other = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', line_items: [{ name: 'B', unit_amount: 1_000 }] })).body;
    await client.post(`/v1/invoices/${other.id}/void`);
    expect((await eventsOf(other.id)).at(-1)).toEqual(['invoice.voided', 'voided']);
    await api.events.settle();
    const notes = (await client.get('/v1/webhooks/messages?event_types=credit_note.ready&event_types=credit_note.settled')).body.data;
    expect(notes.map((m: any) => m.payload.event_type).sort()).toEqual(['credit_note.ready', 'credit_note.settled']);
  });
});
