/**
 * Invoices: POST /v1/invoices with 10 and 100 lines, and POST /v1/invoices/{id}/validate, each beside two DynamoDB
 * floors, (a) its TransactWriteItems alone and (b) its whole sequence (the GetItems it sends, in its order, then that
 * transaction), and the DynamoDB calls per request. Imports the shared table client: import this module only once
 * DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { versionCondition } from '../../shared/db/items';
import type { Key } from '../../shared/db/keys';
import { counterUpdate } from '../../shared/db/pagination';
import { customerInvoiceCounter } from '../../shared/domain/invoices/read';
import type { TransactItem } from '../../shared/db/transactions';
import { PRICE_CONFIGURATION, priceConfigurationKey } from '../../shared/domain/catalog/price-configuration';
import { PRODUCT, productKey } from '../../shared/domain/catalog/product';
import { currencyLockItem } from '../../shared/domain/customers/currency-lock';
import { CUSTOMER, customerItemKey, type CustomerItem } from '../../shared/domain/customers/customer';
import { INVOICE, invoiceKey, invoiceListKeys, type InvoiceItem } from '../../shared/domain/invoices/invoice';
import { issue } from '../../shared/domain/invoices/issue';
import { ENTITY, entityItemKey, type EntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { newId } from '../../shared/ids';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { directInvoker } from './direct-invoke';
import { meter, uninstallMeter, type ReadCost } from './dynamo-meter';
import { apiClient, type ApiCall } from './http';
import { measureRotating, type VariantResult } from './latency';

/** Lines of the two invoices created; the validated drafts have the smaller count. */
const LINES = { small: 10, large: 100 } as const;
const CURRENCY = 'EUR';

export interface InvoiceSeries {
  /** The route, through the local HTTP server. */
  route: VariantResult;
  /** (a) The handler's TransactWriteItems alone. */
  write: VariantResult;
  /** (b) The handler's whole sequence sent directly: its GetItems, in its order, then that TransactWriteItems. */
  full: VariantResult;
}

export interface InvoiceCost {
  route: ReadCost;
  write: ReadCost;
  full: ReadCost;
  /** The route's DynamoDB operations, in the order they were answered, described. */
  described: string[];
  /** JSON size (UTF-8 bytes) of the invoice item the route's transaction puts (route and floors: the same). */
  itemBytes: number;
}

export interface InvoiceResults {
  lines: typeof LINES;
  create: {
    small: InvoiceSeries;
    large: InvoiceSeries;
    /** POST /v1/invoices with 100 lines, the handler invoked in-process (no HTTP, no token check). */
    largeHandler: VariantResult;
    counts: { warmup: number; measured: number };
  };
  /** POST /v1/invoices/{id}/validate of a draft of `lines.small` lines, a fresh one each round. */
  validate: InvoiceSeries & { counts: { warmup: number; measured: number } };
  /** One strongly consistent GetItem (the customer) alone, beside the creation rounds: the unit of (b) − (a). */
  getItem: VariantResult;
  cost: { small: InvoiceCost; large: InvoiceCost; validate: InvoiceCost };
  /** Checked afterwards through the API: invoices in the workspace (route's and floors'), numbers taken per entity. */
  checked: { invoices: number; numbered: number };
  /** Seconds spent creating the validation drafts (untimed, before the validation rounds). */
  draftSeconds: number;
  /** Seconds the whole invoice section took (set-up, rounds, checks). */
  seconds: number;
}

export interface InvoiceBench {
  baseUrl: string;
  keys: LocalKeys;
  counts: { create: { warmup: number; measured: number }; validate: { warmup: number; measured: number } };
}

const send = (items: TransactItem[]) => db.send(new TransactWriteCommand({ TransactItems: items }));

const consistentGet = async <T>(key: Key): Promise<T> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (!Item) throw new Error(`floor: no item ${key.pk} / ${key.sk}`);
  return Item as T;
};

/** Half catalog lines (one fee price configuration, quantities 1–3), half custom lines `{name, unit_amount}`. */
function lineItems(count: number, priceConfigurationId: string): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? { price_configuration_id: priceConfigurationId, quantity: 1 + (i % 3) } : { name: `Consulting, item ${i}`, unit_amount: 10_000 + i * 7 },
  );
}

/**
 * A new invoice item exactly like `template` (one created through the API, read back) but its own: a new id, its
 * keys, timestamps and line ids. Same attributes and the same size, so the floor writes what the handler writes.
 */
function cloneInvoice(ctx: Ctx, template: InvoiceItem): InvoiceItem {
  const id = newId('inv');
  const now = new Date().toISOString();
  return {
    ...template,
    ...invoiceKey(ctx, id),
    ...invoiceListKeys(ctx, now, id),
    id,
    created_at: now,
    updated_at: now,
    line_items: template.line_items.map((line) => ({ ...line, id: newId('ili') })),
  };
}

interface CreateParties {
  customerId: string;
  productId: string;
  priceConfigurationId: string;
  entityId: string;
}

/**
 * The TransactWriteItems createInvoice sends for a draft without coupons (shared/domain/invoices/create.ts), built
 * with the same builders: the invoice Put, the workspace's and the customer's invoice counters, the customer's
 * currency lock (conditioned on the customer being active: archived customers get no invoice).
 */
const createTransaction = (ctx: Ctx, p: CreateParties, invoice: InvoiceItem): TransactItem[] => [
  { Put: { TableName: tableName(), Item: invoice, ConditionExpression: 'attribute_not_exists(pk)' } },
  counterUpdate(ctx, INVOICE, 1),
  counterUpdate(ctx, customerInvoiceCounter(p.customerId), 1),
  currencyLockItem(ctx, p.customerId, 'invoice', CURRENCY, { expect: { status: 'active' } }),
];

/**
 * (b) for creation: createInvoice's reads, in its order and with its parallelism, then its transaction. The customer
 * (customerFor); then, in parallel, the price configuration → its product (resolveLines, each read once however many
 * lines use it) ∥ the entity the customer names. No promotion code: the customer's invoice counter is not read
 * (isFirstOrderForCode), and redemptionsFor reads nothing.
 */
function createFullFloor(ctx: Ctx, p: CreateParties, template: InvoiceItem, written: { count: number }) {
  const customer = customerItemKey(ctx, p.customerId);
  const configuration = priceConfigurationKey(ctx, p.priceConfigurationId);
  const product = productKey(ctx, p.productId);
  const entity = entityItemKey(ctx, p.entityId);
  return async () => {
    await consistentGet(customer);
    await Promise.all([consistentGet(configuration).then(() => consistentGet(product)), consistentGet(entity)]);
    await send(createTransaction(ctx, p, cloneInvoice(ctx, template)));
    written.count += 1;
  };
}

/** (a) for creation: that transaction alone. */
function createWriteFloor(ctx: Ctx, p: CreateParties, template: InvoiceItem, written: { count: number }) {
  return async () => {
    await send(createTransaction(ctx, p, cloneInvoice(ctx, template)));
    written.count += 1;
  };
}

/** The TransactWriteItems validateInvoice sends (shared/domain/invoices/status.ts): the issued invoice Put on its version, the entity's number. */
function validateTransaction(ctx: Ctx, draft: InvoiceItem, entity: EntityItem, customer: CustomerItem): TransactItem[] {
  const { invoice, numbering } = issue(ctx, draft, entity, customer, { allowGrace: true });
  const next = { ...invoice, _version: draft._version + 1 };
  return [{ Put: { TableName: tableName(), Item: next, ...versionCondition(draft._version) } }, numbering];
}

/** What an item of the table is, from its key. */
function itemName(key: Partial<Key>, item?: Record<string, unknown>): string {
  const pk = String(key.pk ?? '');
  const sk = String(key.sk ?? '');
  if (pk.includes('#COUNTER')) return sk === INVOICE ? 'the workspace\'s invoice counter' : sk.startsWith(`${INVOICE}#customer_id=`) ? 'the customer\'s invoice counter' : `counter ${sk}`;
  if (sk === INVOICE) {
    const lines = Array.isArray(item?.line_items) ? ` (${item.line_items.length} lines, ${(itemBytes(item!) / 1024).toFixed(1)} KB as JSON)` : '';
    return `the invoice${lines}`;
  }
  if (sk === CUSTOMER) return 'the customer';
  if (sk === PRODUCT) return 'the product';
  if (sk === PRICE_CONFIGURATION) return 'the price configuration';
  if (sk === ENTITY) return 'the invoicing entity';
  return sk || 'an item';
}

const itemBytes = (item: Record<string, unknown>): number =>
  Buffer.byteLength(JSON.stringify(item, (_, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)] : v)));

const units = (n: number | undefined): string => (n === undefined ? '' : `; ${n} capacity units reported`);

/** Each metered operation in words, e.g. `GetItem (strongly consistent: the customer)`. */
function describe(requests: ReadCost['requests']): string[] {
  return requests.map(({ command, input, units: reported }) => {
    if (command === 'GetItem') return `GetItem (${input.ConsistentRead ? 'strongly consistent' : 'eventually consistent'}: ${itemName(input.Key as Key)}${units(reported)})`;
    if (command === 'TransactWriteItems') {
      const items = (input.TransactItems as Record<string, { Key?: Key; Item?: Record<string, unknown>; ConditionExpression?: string }>[]).map((entry) => {
        const [kind, body] = Object.entries(entry)[0]!;
        return `${kind} of ${itemName(body.Key ?? body.Item ?? {}, body.Item)}${body.ConditionExpression ? ` if \`${body.ConditionExpression}\`` : ''}`;
      });
      return `TransactWriteItems (${items.join(', ')}${units(reported)})`;
    }
    return `${command}${units(reported)}`;
  });
}

const transactionOf = (requests: ReadCost['requests']) => {
  const write = requests.find((r) => r.command === 'TransactWriteItems');
  if (!write) throw new Error('no TransactWriteItems among the metered requests');
  return write.input.TransactItems as Record<string, Record<string, unknown>>[];
};

/** What must match between the handler's transaction and a floor's: operations, conditions, expressions, attributes. */
function transactionShape(requests: ReadCost['requests']) {
  return transactionOf(requests).map((entry) => {
    const [kind, body] = Object.entries(entry)[0]!;
    return {
      kind,
      key: Object.keys((body.Key ?? {}) as object).sort(),
      attributes: Object.keys((body.Item ?? {}) as object).sort(),
      lines: Array.isArray((body.Item as { line_items?: unknown[] } | undefined)?.line_items) ? (body.Item as { line_items: unknown[] }).line_items.length : undefined,
      condition: body.ConditionExpression,
      update: body.UpdateExpression,
      names: body.ExpressionAttributeNames,
      values: Object.keys((body.ExpressionAttributeValues ?? {}) as object).sort(),
    };
  });
}

/** The JSON size of the invoice the transaction puts. */
function putBytes(requests: ReadCost['requests']): number {
  const put = transactionOf(requests).find((e) => e.Put)?.Put;
  if (!put) throw new Error('no Put in the transaction');
  return itemBytes(put.Item as Record<string, unknown>);
}

/** The reads, as `GetItem <what> (consistent?)`, sorted (parallel reads answer in any order). */
const readsOf = (requests: ReadCost['requests'], exactKeys: boolean) =>
  requests.filter((r) => r.command !== 'TransactWriteItems').map((r) => {
    const key = r.input.Key as Key | undefined;
    return `${r.command} ${exactKeys ? `${key?.pk}|${key?.sk}` : itemName(key ?? {})} ${String(r.input.ConsistentRead)}`;
  }).sort();

async function meteredCost(label: string, route: () => Promise<unknown>, write: () => Promise<unknown>, full: () => Promise<unknown>, exactKeys: boolean): Promise<InvoiceCost> {
  const r = await meter(route);
  const cost: InvoiceCost = { route: r, write: await meter(write), full: await meter(full), described: describe(r.requests), itemBytes: putBytes(r.requests) };
  const drift = `the bench floor no longer sends what the handler sends (${label})`;
  const shape = transactionShape(r.requests);
  deepStrictEqual(transactionShape(cost.write.requests), shape, `${drift}, floor (a)`);
  deepStrictEqual(transactionShape(cost.full.requests), shape, `${drift}, floor (b)`);
  deepStrictEqual(readsOf(cost.write.requests, exactKeys), [], `${drift}: floor (a) reads`);
  deepStrictEqual(readsOf(cost.full.requests, exactKeys), readsOf(r.requests, exactKeys), `${drift}: floor (b) does not read what the handler reads`);
  for (const [floor, c] of [['(a)', cost.write], ['(b)', cost.full]] as const) {
    const bytes = putBytes(c.requests);
    // Same attributes; ids and timestamps have fixed lengths, only the issue number's digits may differ.
    if (Math.abs(bytes - cost.itemBytes) > 4) throw new Error(`${drift}: floor ${floor} puts ${bytes} bytes, the handler ${cost.itemBytes}`);
  }
  return cost;
}

export async function measureInvoices({ baseUrl, keys, counts }: InvoiceBench): Promise<InvoiceResults> {
  const started = performance.now();
  const workspaceId = `ws_bench_inv_${Math.random().toString(36).slice(2, 10)}`;
  const ctx = makeCtx(workspaceId, 'bench');
  const token = await signToken(keys, { workspace: workspaceId, scope: 'read write' });
  const call = apiClient(baseUrl, token);
  let invoices = 0;

  // The first entity is the workspace's default (creation uses it); validation gives each variant its own entity,
  // so each numbering counter has one writer: floor (a) can keep its entity's counter itself.
  const entity = (name: string) => call<{ id: string }>('POST', '/v1/invoicing-entities', 201, {
    name, country: 'FR', currency: CURRENCY, tax_id: 'FR40303265045', invoice_footer: `${name}, 1 rue de Paris, 75001 Paris`,
    address_line1: '1 rue de Paris', city: 'Paris', zip_code: '75001',
  });
  const mainEntity = await entity('Bench Invoices SAS');
  const customer = await call<{ id: string }>('POST', '/v1/customers', 201, {
    name: 'Globex', currency: CURRENCY, billing_email: 'ap@globex.test', billing_address: { line1: '5 quai Perrache', city: 'Lyon', zip: '69002', country: 'FR' },
  });
  const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: 'Platform fee', type: 'flat_fee' });
  const configuration = await call<{ id: string }>('POST', '/v1/price-configurations', 201, {
    product_id: product.id, currency: CURRENCY, type: 'fee', prices: [{ amount: 4_999 }], billing_interval: { period: 'months', count: 1 },
  });
  const parties: CreateParties = { customerId: customer.id, productId: product.id, priceConfigurationId: configuration.id, entityId: mainEntity.id };
  const body = (lines: number, entityId?: string) => ({
    customer_id: customer.id, ...(entityId && { invoicing_entity_id: entityId }), line_items: lineItems(lines, configuration.id), purchase_order: 'PO-2026-117',
  });
  const bodies = { small: body(LINES.small), large: body(LINES.large) };

  // -------------------------------------------------------------------------------------------------------------
  // Creation

  const create = (b: unknown) => async () => {
    await call('POST', '/v1/invoices', 201, b);
    invoices += 1;
  };
  const template = async (b: typeof bodies.small, lines: number): Promise<InvoiceItem> => {
    const created = await call<{ id: string; line_items: unknown[]; total_amount: number }>('POST', '/v1/invoices', 201, b);
    invoices += 1;
    if (created.line_items.length !== lines || !(created.total_amount > 0)) throw new Error(`a ${lines}-line invoice came back with ${created.line_items.length} lines`);
    return consistentGet<InvoiceItem>(invoiceKey(ctx, created.id));
  };
  const smallTemplate = await template(bodies.small, LINES.small);
  const largeTemplate = await template(bodies.large, LINES.large);
  const floorWrites = { count: 0 };
  const invoke = await directInvoker('createInvoice', keys, token);
  const inProcess = async () => {
    await invoke('/v1/invoices', {}, 201, bodies.large);
    invoices += 1;
  };
  const customerKey = customerItemKey(ctx, customer.id);

  const creators = {
    small: { route: create(bodies.small), write: createWriteFloor(ctx, parties, smallTemplate, floorWrites), full: createFullFloor(ctx, parties, smallTemplate, floorWrites) },
    large: { route: create(bodies.large), write: createWriteFloor(ctx, parties, largeTemplate, floorWrites), full: createFullFloor(ctx, parties, largeTemplate, floorWrites) },
  };
  const created = await measureRotating([
    { name: 'small.route', run: creators.small.route },
    { name: 'small.write', run: creators.small.write },
    { name: 'small.full', run: creators.small.full },
    { name: 'large.route', run: creators.large.route },
    { name: 'large.handler', run: inProcess },
    { name: 'large.write', run: creators.large.write },
    { name: 'large.full', run: creators.large.full },
    { name: 'read.get', run: () => consistentGet(customerKey) },
  ], counts.create, dynamoCallCount);
  const c = (name: string) => created.get(name)!;

  // -------------------------------------------------------------------------------------------------------------
  // Validation: a fresh draft each round (created beforehand, untimed, the three variants' drafts interleaved)

  const variants = ['route', 'write', 'full'] as const;
  type Variant = (typeof variants)[number];
  const entities = {} as Record<Variant, string>;
  for (const v of variants) entities[v] = (await entity(`Bench Validation ${v} SAS`)).id;
  const rounds = counts.validate.warmup + counts.validate.measured + 1; // + 1: the metered request
  const drafts = { route: [] as string[], write: [] as string[], full: [] as string[] };
  const draftStarted = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const draft = await call<{ id: string; status: string }>('POST', '/v1/invoices', 201, body(LINES.small, entities[v]));
      if (draft.status !== 'draft') throw new Error(`a new invoice is ${draft.status}, not draft`);
      drafts[v].push(draft.id);
      invoices += 1;
    }
  }
  const draftSeconds = (performance.now() - draftStarted) / 1000;

  // (a): the transaction alone, on drafts read beforehand and an entity whose counter the floor keeps itself.
  const writeDrafts = await Promise.all(drafts.write.map((id) => consistentGet<InvoiceItem>(invoiceKey(ctx, id))));
  let writeEntity = await consistentGet<EntityItem>(entityItemKey(ctx, entities.write));
  const customerItem = await consistentGet<CustomerItem>(customerKey);
  const next = { route: 0, write: 0, full: 0 };
  const validators = {
    route: async () => {
      await call('POST', `/v1/invoices/${drafts.route[next.route++]!}/validate`, 200);
    },
    write: async () => {
      await send(validateTransaction(ctx, writeDrafts[next.write++]!, writeEntity, customerItem));
      writeEntity = { ...writeEntity, next_invoice_number: writeEntity.next_invoice_number + 1, _version: writeEntity._version + 1 };
    },
    // (b): validateInvoice's sequence: the draft, then its entity ∥ its customer, then the transaction built on them.
    full: async () => {
      const draft = await consistentGet<InvoiceItem>(invoiceKey(ctx, drafts.full[next.full++]!));
      const [e, cu] = await Promise.all([consistentGet<EntityItem>(entityItemKey(ctx, draft.invoicing_entity_id)), consistentGet<CustomerItem>(customerItemKey(ctx, draft.customer_id))]);
      await send(validateTransaction(ctx, draft, e, cu));
    },
  };
  const validated = await measureRotating(variants.map((v) => ({ name: v, run: validators[v] })), counts.validate, dynamoCallCount);
  const v = (name: Variant) => validated.get(name)!;

  // -------------------------------------------------------------------------------------------------------------
  // One metered request of each kind (untimed); the floors must send the handler's transaction and reads.

  let cost: InvoiceResults['cost'];
  try {
    cost = {
      small: await meteredCost('10 lines', creators.small.route, creators.small.write, creators.small.full, true),
      large: await meteredCost('100 lines', creators.large.route, creators.large.write, creators.large.full, true),
      validate: await meteredCost('validation', validators.route, validators.write, validators.full, false),
    };
  } finally {
    uninstallMeter();
  }
  const checked = await checkWorkspace(call, invoices + floorWrites.count, entities, next, drafts);
  return {
    lines: LINES,
    create: {
      small: { route: c('small.route'), write: c('small.write'), full: c('small.full') },
      large: { route: c('large.route'), write: c('large.write'), full: c('large.full') },
      largeHandler: c('large.handler'),
      counts: counts.create,
    },
    validate: { route: v('route'), write: v('write'), full: v('full'), counts: counts.validate },
    getItem: c('read.get'),
    cost,
    checked,
    draftSeconds,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Through the API: the workspace lists every invoice written (the route's and the floors', so the floors did update
 * the counters), each validation entity has taken exactly one number per validation, and the last draft each
 * variant validated is to_pay with the last of those numbers.
 */
async function checkWorkspace(
  call: ApiCall, expected: number, entities: Record<string, string>, validations: Record<string, number>, drafts: Record<string, string[]>,
): Promise<InvoiceResults['checked']> {
  const list = await call<{ meta: { total: number } }>('GET', '/v1/invoices?take=1', 200);
  if (list.meta.total !== expected) throw new Error(`the workspace lists ${list.meta.total} invoices; the bench wrote ${expected}`);
  let numbered = 0;
  for (const [variant, id] of Object.entries(entities)) {
    const done = validations[variant]!;
    const entity = await call<{ next_invoice_number: number }>('GET', `/v1/invoicing-entities/${id}`, 200);
    if (entity.next_invoice_number !== 1 + done) throw new Error(`entity of ${variant}: next_invoice_number ${entity.next_invoice_number} after ${done} validations`);
    const last = await call<{ status: string; number: string | null }>('GET', `/v1/invoices/${drafts[variant]![done - 1]!}`, 200);
    if (last.status !== 'to_pay' || last.number !== `INV-${done}`) throw new Error(`last invoice validated by ${variant}: ${last.status}, number ${last.number}, expected to_pay INV-${done}`);
    numbered += done;
  }
  return { invoices: expected, numbered };
}
