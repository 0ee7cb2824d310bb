import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const MONTHLY = { period: 'months', count: 1 };
const YEAR = { period: 'years', count: 1 };

const customer = async (body: Record<string, unknown> = {}, c: Client = client) =>
  (await c.post('/v1/customers', { name: 'Globex', currency: 'EUR', billing_address: { country: 'FR' }, ...body })).body;
const product = async (body: Record<string, unknown> = {}, c: Client = client) => (await c.post('/v1/products', { name: 'Platform', type: 'flat_fee', ...body })).body;
/** A product and one price configuration of it (a fee of `amount` unless `body` says otherwise). */
async function priced(amount: number, body: Record<string, unknown> = {}, productBody: Record<string, unknown> = {}, c: Client = client) {
  const item = await product(productBody, c);
  const reply = await c.post('/v1/price-configurations', { product_id: item.id, currency: 'EUR', type: 'fee', prices: [{ amount }], ...body });
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return { product_id: item.id as string, price_configuration_id: reply.body.id as string };
}
/** A monthly fee committed for a year: the usual subscription line. */
const monthly = (amount = 10_000) => priced(amount, { billing_interval: MONTHLY, commitment_interval: YEAR });

async function quote(body: Record<string, unknown>, c: Client = client) {
  const reply = await c.post('/v1/quotes', body);
  expect([reply.status, reply.body.code, reply.body.message]).toEqual([201, undefined, undefined]);
  return reply.body;
}
/** A subscription quote of one monthly line for a new customer. */
async function simpleQuote(body: Record<string, unknown> = {}, c: Client = client) {
  const buyer = await customer({}, c);
  const line = await (c === client ? monthly() : priced(10_000, { billing_interval: MONTHLY }, {}, c));
  return quote({ customer_id: buyer.id, type: 'subscription', line_items: [{ ...line, quantity: 1 }], ...body }, c);
}
const act = (id: string, action: string, body?: unknown) => client.post(`/v1/quotes/${id}/${action}`, body);
const status = async (id: string) => (await client.get(`/v1/quotes/${id}`)).body.status;

describe('POST /v1/quotes', () => {
  it('creates a numbered draft with every member of the quote, and GET answers the same', async () => {
    const buyer = await customer();
    const line = await monthly(4_900);
    const created = await quote({
      customer_id: buyer.id, type: 'subscription', line_items: [{ ...line, quantity: 3 }], starts_at: '2027-01-01T00:00:00.000Z',
      comments: 'Thanks', terms: 'Net 30', owner_email: 'sales@acme.test', template_id: null, crm_opportunity_id: 'deal-7',
      collect_custom_property_ids: ['siren'], collect_tax_id: true, display_price_tiers: 'all', expires_at: '2030-01-01T00:00:00.000Z',
      attachments: [{ name: 'Terms.pdf', mimetype: 'application/pdf' }, { id: 'quof_given', name: 'Deck.pdf', mimetype: 'application/pdf' }],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^quo_/), number: expect.stringMatching(/^QUO-\d+$/), customer_id: buyer.id, invoicing_entity_id: buyer.invoicing_entity_id,
      type: 'subscription', status: 'draft', currency: 'EUR', amount: 4_900 * 3 * 12,
      line_items: [{
        product_id: line.product_id, price_configuration_id: line.price_configuration_id, quantity: 3, name: 'Platform', price_type: 'fee',
        billing_interval: MONTHLY, commitment_interval: YEAR, amount_per_period: 14_700, billing_periods: 12, amount: 176_400,
        tiers: [{ from: 1, to: null, units: 3, amount: 14_700 }],
      }],
      starts_at: '2027-01-01T00:00:00.000Z', subscription_id: null, child_subscription_ids: [], invoice_id: null, promotion_code: null,
      requires_approval: false, template_id: null, crm_opportunity_id: 'deal-7', comments: 'Thanks', terms: 'Net 30', owner_email: 'sales@acme.test',
      expires_at: '2030-01-01T00:00:00.000Z', collect_payment_details: false, collect_custom_property_ids: ['siren'], collect_tax_id: true,
      display_quote_value: true, display_taxes: true, display_price_tiers: 'all', display_phase_value: false, display_first_invoice_amount: false,
      display_documents_in_preview: false, display_subscription_on_update: true, display_total_with_tax: false, post_signature_activation_enabled: true, automatically_start_subscription: true,
      attachments: [{ id: expect.stringMatching(/^quof_/), name: 'Terms.pdf', mimetype: 'application/pdf' }, { id: 'quof_given', name: 'Deck.pdf', mimetype: 'application/pdf' }],
      signed_file: null, url: null, sent_at: null, sent_to: null, sent_message: null, signed_at: null, signer_name: null, signer_email: null,
      void_reason: null, voided_at: null, created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect((await client.get(`/v1/quotes/${created.id}`)).body).toEqual(created);
    expect((await client.get('/v1/quotes/quo_unknown')).status).toBe(404);
  });

  it('computes the amount with the pricing engine: each line for its quantity × the billing periods of its commitment', async () => {
    const buyer = await customer();
    const monthlyYear = await monthly(1_000); // 12 periods
    const uncommitted = await priced(500, { billing_interval: MONTHLY }); // commitment all: 1
    const setup = await priced(20_000); // once
    const seats = await priced(0, {
      type: 'volume', billing_interval: MONTHLY, commitment_interval: { period: 'months', count: 6 },
      prices: [{ from: 1, to: 10, amount: 800, unit_count: 1, on_tier_incomplete: 'pro_rata' }, { from: 11, to: null, amount: 600, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    }, { type: 'seat', name: 'Seats' });
    const lines = [{ ...monthlyYear, quantity: 2 }, uncommitted, setup, { ...seats, quantity: 12 }];
    const sub = await quote({ customer_id: buyer.id, type: 'subscription', line_items: lines });
    expect(sub.line_items.map((l: any) => [l.name, l.amount_per_period, l.billing_periods, l.amount])).toEqual([
      ['Platform', 2_000, 12, 24_000], ['Platform', 500, 1, 500], ['Platform', 20_000, 1, 20_000], ['Seats', 7_200, 6, 43_200],
    ]);
    expect(sub.amount).toBe(24_000 + 500 + 20_000 + 43_200);
    expect(sub.line_items[3].tiers).toEqual([{ from: 11, to: null, units: 12, amount: 7_200 }]);
    // Other intervals: quarterly for 2 years → 8 periods; weekly for a month → 4 (a month is a twelfth of 365 days).
    const quarterly = await priced(3_000, { billing_interval: { period: 'months', count: 3 }, commitment_interval: { period: 'years', count: 2 } });
    const weekly = await priced(100, { billing_interval: { period: 'weeks', count: 1 }, commitment_interval: { period: 'months', count: 1 } });
    expect((await quote({ customer_id: buyer.id, type: 'subscription', line_items: [quarterly] })).amount).toBe(24_000);
    expect((await quote({ customer_id: buyer.id, type: 'subscription', line_items: [{ ...weekly, quantity: 5 }] })).amount).toBe(2_000);
    // A one_off quote issues one invoice: every line counts once.
    const oneOff = await quote({ customer_id: buyer.id, type: 'one_off', line_items: [{ ...monthlyYear, quantity: 2 }, setup, quarterly] });
    expect(oneOff.line_items.map((l: any) => l.billing_periods)).toEqual([1, 1, 1]);
    expect(oneOff.amount).toBe(2_000 + 20_000 + 3_000);
  });

  it('numbers quotes per workspace without gap or duplicate under 20 parallel creations', async () => {
    const own = await api.client();
    await withEntity(own);
    const buyer = await customer({}, own);
    const line = await priced(1_000, { billing_interval: MONTHLY }, {}, own);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => own.post('/v1/quotes', { customer_id: buyer.id, type: 'subscription', line_items: [line] })),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    const numbers = replies.map((r) => Number(String(r.body.number).replace('QUO-', ''))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // A refused creation takes no number.
    expect((await own.post('/v1/quotes', { customer_id: 'cus_nope', type: 'one_off', line_items: [line] })).status).toBe(422);
    expect((await own.post('/v1/quotes', { customer_id: buyer.id, type: 'one_off', line_items: [line] })).body.number).toBe('QUO-21');
    expect((await own.get('/v1/quotes?take=0')).body.meta).toEqual({ total: 21, taken: 0, skipped: 0, approximateCount: false });
  });

  it('refuses archived products, unknown references and a foreign currency (422), and bad lines (400), writing nothing', async () => {
    const own = await api.client();
    await withEntity(own);
    const buyer = await customer({}, own);
    const archived = await priced(1_000, { billing_interval: MONTHLY }, {}, own);
    await own.put(`/v1/products/${archived.product_id}/archive`);
    const usd = await priced(1_000, { currency: 'USD', billing_interval: MONTHLY }, {}, own);
    const good = await priced(1_000, { billing_interval: MONTHLY }, {}, own);
    const bps = await priced(0, { type: 'bps', prices: [{ from: 1, to: null, percentage: 1 }] }, { type: 'dynamic' }, own);
    const noCurrency = (await own.post('/v1/customers', { name: 'No currency' })).body;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ line_items: [archived] }, 422, 'product_archived'],
      [{ line_items: [usd] }, 422, 'currency_mismatch'],
      [{ line_items: [bps] }, 422, 'price_not_supported'],
      [{ line_items: [{ price_configuration_id: 'prc_nope' }] }, 422, 'price_not_found'],
      [{ line_items: [{ ...good, product_id: archived.product_id }] }, 400, 'invalid_request'],
      [{ customer_id: 'cus_nope' }, 422, 'customer_not_found'],
      [{ customer_id: noCurrency.id }, 422, 'customer_currency_missing'],
      [{ invoicing_entity_id: 'ive_nope' }, 422, 'invoicing_entity_not_found'],
      [{ line_items: [] }, 400, 'invalid_request'],
      [{ type: 'quarterly' }, 400, 'invalid_request'],
      [{ line_items: [{ ...good, quantity: -1 }] }, 400, 'invalid_request'],
      [{ type: 'subscription_update' }, 400, 'invalid_request'],
      [{ type: 'subscription_update', subscription_id: 'sub_nope' }, 422, 'subscription_not_found'],
      [{ subscription_id: 'sub_nope' }, 400, 'invalid_request'],
      [{ type: 'one_off', starts_at: '2027-01-01T00:00:00.000Z' }, 400, 'invalid_request'],
      [{ display_total_with_tax: true }, 400, 'invalid_request'],
      [{ promotion_code: 'NOPE' }, 422, 'promotion_code_not_applicable'],
      [{ requires_approval: true, status: 'approved' }, 409, 'invalid_state_transition'],
      [{ status: 'signed' }, 400, 'invalid_request'],
    ];
    for (const [body, code, error] of cases) {
      const reply = await own.post('/v1/quotes', { customer_id: buyer.id, type: 'subscription', line_items: [good], ...body });
      expect([body, reply.status, reply.body.code]).toEqual([body, code, error]);
    }
    // The subscription rules hold at once: a subscription needs a recurring product, all billed every same interval.
    const once = await priced(1_000, {}, {}, own);
    const yearly = await priced(1_000, { billing_interval: YEAR }, {}, own);
    const onlyOnce = await own.post('/v1/quotes', { customer_id: buyer.id, type: 'subscription', line_items: [once] });
    expect([onlyOnce.status, onlyOnce.body.code]).toEqual([422, 'subscription_not_recurring']);
    const mixed = await own.post('/v1/quotes', { customer_id: buyer.id, type: 'subscription', line_items: [good, yearly] });
    expect([mixed.status, mixed.body.code]).toEqual([422, 'billing_interval_mismatch']);
    expect((await own.post('/v1/quotes', { customer_id: buyer.id, type: 'one_off', line_items: [once, good, yearly] })).status).toBe(201);
    expect((await own.get('/v1/quotes?take=0')).body.meta.total).toBe(1);
  });

  it('checks a promotion code when the quote is written, and counts no redemption before the signature', async () => {
    const buyer = await customer();
    const line = await monthly();
    const coupon = (await client.post('/v1/coupons', { name: 'Ten', type: 'percent', discount_percent: 10 })).body;
    const code = (await client.post('/v1/promotion-codes', { code: `Q${Date.now()}`, coupon_id: coupon.id, max_redemptions: 1 })).body;
    const created = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line], promotion_code: code.code });
    expect(created.promotion_code).toBe(code.code);
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(0);
    const other = (await client.post('/v1/promotion-codes', { code: `R${Date.now()}`, coupon_id: coupon.id, customer_id: (await customer()).id })).body;
    const reserved = await client.patch(`/v1/quotes/${created.id}`, { promotion_code: other.code });
    expect([reserved.status, reserved.body.code]).toEqual([422, 'promotion_code_not_applicable']);
  });

  it('creates a quote directly approved or pending signature when asked and no approval is required', async () => {
    const approved = await simpleQuote({ status: 'approved' });
    expect([approved.status, approved.url]).toEqual(['approved', null]);
    const sent = await simpleQuote({ status: 'pending_signature' });
    expect(sent).toMatchObject({ status: 'pending_signature', url: expect.stringMatching(/\/pages\/quotes\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/), sent_at: expect.any(String) });
  });
});

describe('GET /v1/quotes', () => {
  it('lists oldest first with take/skip and filters status (with __in/__notIn), customer_id and type', async () => {
    const own = await api.client();
    await withEntity(own);
    const [a, b] = [await customer({}, own), await customer({}, own)];
    const line = await priced(1_000, { billing_interval: MONTHLY }, {}, own);
    const make = (c: { id: string }, type: string) => quote({ customer_id: c.id, type, line_items: [line] }, own);
    const q1 = await make(a, 'subscription');
    const q2 = await make(a, 'one_off');
    const q3 = await make(b, 'subscription');
    await own.post(`/v1/quotes/${q2.id}/finalize`);
    await own.post(`/v1/quotes/${q3.id}/void`, { reason: 'Lost' });
    const ids = async (query: string) => {
      const reply = await own.get(`/v1/quotes${query}`);
      expect(reply.status).toBe(200);
      return reply.body.data.map((q: { id: string }) => q.id);
    };
    expect(await ids('')).toEqual([q1.id, q2.id, q3.id]);
    const page = (await own.get('/v1/quotes?take=1&skip=1')).body;
    expect([page.meta, page.data.map((q: { id: string }) => q.id)]).toEqual([{ total: 3, taken: 1, skipped: 1, approximateCount: false }, [q2.id]]);
    expect(await ids('?status=draft')).toEqual([q1.id]);
    expect(await ids('?status__in=approved,voided')).toEqual([q2.id, q3.id]);
    expect(await ids('?status__notIn=approved,voided')).toEqual([q1.id]);
    expect(await ids(`?customer_id=${a.id}`)).toEqual([q1.id, q2.id]);
    expect(await ids('?type=one_off')).toEqual([q2.id]);
    expect(await ids(`?type=subscription&customer_id=${b.id}`)).toEqual([q3.id]);
    expect(await ids(`?number=${q2.number}`)).toEqual([q2.id]);
    expect((await own.get('/v1/quotes?status=void')).status).toBe(400);
    expect((await own.get('/v1/quotes?status__in=draft,nope')).status).toBe(400);
    expect((await own.get('/v1/quotes?colour=red')).status).toBe(400);
  });
});

describe('PATCH /v1/quotes/{id}', () => {
  it('edits a draft: new lines are priced again, omitted members kept, null clears', async () => {
    const created = await simpleQuote({ comments: 'First', owner_email: 'a@acme.test' });
    const line = await monthly(2_500);
    const reply = await client.patch(`/v1/quotes/${created.id}`, { line_items: [{ ...line, quantity: 2 }], comments: null, display_taxes: false });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: 'draft', comments: null, owner_email: 'a@acme.test', display_taxes: false, amount: 2_500 * 2 * 12, number: created.number,
      line_items: [expect.objectContaining({ product_id: line.product_id, quantity: 2, amount: 60_000 })],
    });
    expect(Date.parse(reply.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await client.get(`/v1/quotes/${created.id}`)).body).toEqual(reply.body);
    const archived = await monthly();
    await client.put(`/v1/products/${archived.product_id}/archive`);
    const refused = await client.patch(`/v1/quotes/${created.id}`, { line_items: [archived] });
    expect([refused.status, refused.body.code]).toEqual([422, 'product_archived']);
    const wrongType = await client.patch(`/v1/quotes/${created.id}`, { display_total_with_tax: true });
    expect([wrongType.status, wrongType.body.errors?.[0]?.path]).toEqual([400, 'body.display_total_with_tax']);
    expect((await client.patch(`/v1/quotes/${created.id}`, {})).status).toBe(400);
    expect((await client.patch(`/v1/quotes/${created.id}`, { type: 'one_off' })).status).toBe(400);
    expect((await client.patch('/v1/quotes/quo_unknown', { comments: 'x' })).status).toBe(404);
  });

  it('edits in draft and changes_requested only; any other status is a 409', async () => {
    const changes = await simpleQuote({ requires_approval: true });
    await act(changes.id, 'finalize');
    expect((await client.patch(`/v1/quotes/${changes.id}`, { comments: 'x' })).body.code).toBe('quote_not_editable');
    await act(changes.id, 'request-changes');
    const edited = await client.patch(`/v1/quotes/${changes.id}`, { comments: 'Fixed', requires_approval: false });
    expect([edited.status, edited.body.status, edited.body.comments]).toEqual([200, 'changes_requested', 'Fixed']);
    for (const target of ['approved', 'pending_signature', 'signed', 'voided']) {
      const id = await inStatus(target);
      const reply = await client.patch(`/v1/quotes/${id}`, { comments: 'late' });
      expect([target, reply.status, reply.body.code]).toEqual([target, 409, 'quote_not_editable']);
    }
  });
});

/** A fresh quote brought to `target` through the routes. */
async function inStatus(target: string): Promise<string> {
  const created = await simpleQuote({ requires_approval: ['pending_approval', 'changes_requested'].includes(target) });
  const id = created.id;
  const steps: Record<string, [string, unknown?][]> = {
    draft: [],
    pending_approval: [['finalize']],
    changes_requested: [['finalize'], ['request-changes']],
    approved: [['finalize']],
    pending_signature: [['finalize'], ['send', { email: 'buyer@globex.test' }]],
    signed: [['sign', {}]],
    voided: [['void', { reason: 'Lost' }]],
  };
  for (const [action, body] of steps[target]!) expect((await act(id, action, body)).status).toBe(200);
  expect(await status(id)).toBe(target);
  return id;
}

const STATUSES = ['draft', 'pending_approval', 'changes_requested', 'approved', 'pending_signature', 'signed', 'voided'] as const;

describe('quote moves (decisions.md, "Quotes")', () => {
  /** action → [body, the statuses it moves from, and where to]: every other status answers 409. */
  const table: Record<string, [unknown, Partial<Record<(typeof STATUSES)[number], string>>]> = {
    // The changes_requested quote of inStatus requires approval (that is how it got there): back to pending_approval.
    finalize: [undefined, { draft: 'approved', changes_requested: 'pending_approval' }],
    approve: [undefined, { pending_approval: 'approved' }],
    'request-changes': [undefined, { pending_approval: 'changes_requested' }],
    send: [{ email: 'buyer@globex.test' }, { approved: 'pending_signature' }],
    sign: [{}, { draft: 'signed', pending_approval: 'signed', changes_requested: 'signed', approved: 'signed', pending_signature: 'signed' }],
    void: [{ reason: 'Lost' }, { draft: 'voided', pending_approval: 'voided', changes_requested: 'voided', approved: 'voided', pending_signature: 'voided' }],
  };

  it.each(Object.keys(table))('%s: moves exactly as the table says, else 409 invalid_state_transition', async (action) => {
    const [body, moves] = table[action]!;
    await Promise.all(
      STATUSES.map(async (from) => {
        const id = await inStatus(from);
        const before = (await client.get(`/v1/quotes/${id}`)).body;
        const reply = await act(id, action, body);
        const to = moves[from];
        if (to) {
          expect([from, reply.status, reply.body.status]).toEqual([from, 200, to]);
          expect(reply.body).toEqual((await client.get(`/v1/quotes/${id}`)).body);
        } else {
          expect([from, reply.status, reply.body.code]).toEqual([from, 409, 'invalid_state_transition']);
          expect((await client.get(`/v1/quotes/${id}`)).body).toEqual(before);
        }
      }),
    );
    expect((await act('quo_unknown', action, body)).status).toBe(404);
  });

  it('finalizes to pending_approval when the quote requires approval, then approve or request changes', async () => {
    const needs = await simpleQuote({ requires_approval: true });
    expect((await act(needs.id, 'finalize')).body.status).toBe('pending_approval');
    expect((await act(needs.id, 'request-changes')).body.status).toBe('changes_requested');
    expect((await act(needs.id, 'finalize')).body.status).toBe('pending_approval');
    expect((await act(needs.id, 'approve')).body.status).toBe('approved');
    const free = await simpleQuote();
    expect((await act(free.id, 'finalize')).body.status).toBe('approved');
  });

  it('gives a url only in pending_signature and signed, and records whom the quote was sent to', async () => {
    const created = await simpleQuote();
    expect(created.url).toBeNull();
    expect((await act(created.id, 'finalize')).body.url).toBeNull();
    const sent = (await act(created.id, 'send', { email: 'cfo@globex.test', message: 'Our offer' })).body;
    expect(sent).toMatchObject({
      status: 'pending_signature', url: expect.stringMatching(/\/pages\/quotes\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/), sent_to: 'cfo@globex.test', sent_message: 'Our offer', sent_at: expect.any(String),
    });
    const signed = (await act(created.id, 'sign', { signer_name: 'Ada', signer_email: 'ada@globex.test' })).body;
    expect(signed).toMatchObject({ status: 'signed', url: sent.url, signer_name: 'Ada', signer_email: 'ada@globex.test' });
    const voided = await simpleQuote({ status: 'pending_signature' });
    expect(voided.url).toEqual(expect.any(String));
    expect((await act(voided.id, 'void', { reason: 'Too late' })).body.url).toBeNull();
    for (const target of ['draft', 'pending_approval', 'changes_requested', 'approved']) {
      expect([target, (await client.get(`/v1/quotes/${await inStatus(target)}`)).body.url]).toEqual([target, null]);
    }
    const bad = await act((await inStatus('approved')), 'send', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
  });

  it('voids with a required reason of 1 to 1000 characters, recorded with the time', async () => {
    const created = await simpleQuote();
    for (const body of [undefined, {}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(1001) }, { reason: 12 }]) {
      const reply = await act(created.id, 'void', body);
      expect([body, reply.status, reply.body.code]).toEqual([body, 400, 'invalid_request']);
    }
    expect(await status(created.id)).toBe('draft');
    const reason = 'é'.repeat(1000);
    const voided = (await act(created.id, 'void', { reason })).body;
    expect(voided).toMatchObject({ status: 'voided', void_reason: reason, voided_at: expect.any(String) });
    expect(voided.voided_at).toBe(voided.updated_at);
  });

  it('refuses to send or sign a quote past its expiry date (422), and accepts a signature dated before it', async () => {
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const expired = await simpleQuote({ expires_at: past, status: 'approved' });
    const send = await act(expired.id, 'send', { email: 'a@globex.test' });
    expect([send.status, send.body.code]).toEqual([422, 'quote_expired']);
    const sign = await act(expired.id, 'sign', {});
    expect([sign.status, sign.body.code]).toEqual([422, 'quote_expired']);
    const before = new Date(Date.parse(past) - 3_600_000).toISOString();
    expect((await act(expired.id, 'sign', { signed_at: before })).body).toMatchObject({ status: 'signed', signed_at: before });
  });

  it('signs with an optional body: signed_at (not in the future), signer and signed file', async () => {
    const created = await simpleQuote();
    const future = await act(created.id, 'sign', { signed_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect([future.status, future.body.errors?.[0]?.path]).toEqual([400, 'body.signed_at']);
    expect((await act(created.id, 'sign', { signer_name: 12 })).status).toBe(400);
    const signedAt = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const signed = (await act(created.id, 'sign', { signed_at: signedAt, signed_file: { name: 'Signed.pdf', mimetype: 'application/pdf' } })).body;
    expect(signed).toMatchObject({
      status: 'signed', signed_at: signedAt, signer_name: null, signer_email: null,
      signed_file: { id: expect.stringMatching(/^quof_/), name: 'Signed.pdf', mimetype: 'application/pdf' },
    });
    const bare = await simpleQuote();
    const reply = await client.post(`/v1/quotes/${bare.id}/sign`);
    expect([reply.status, reply.body.status]).toEqual([200, 'signed']);
    expect(Date.parse(reply.body.signed_at)).toBeLessThanOrEqual(Date.now());
  });
});
