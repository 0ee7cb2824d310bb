/**
 * npm run docs:dashboard: the screenshots of docs/dashboard.md (docs/images/dashboard-*.png), taken from a throwaway
 * local service (DynamoDB Local in memory, Java 17+) with a small sample workspace, in Chromium (/usr/bin/chromium),
 * after signing in through the dashboard's own OAuth flow.
 */
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ensureTable } from '../lib/local/create-table';
import { startDynamoLocal } from '../lib/local/dynamodb-local';
import { generateKeys, signToken } from '../lib/local/jwt';
import { parseCommandLine } from './command-line';

parseCommandLine('usage: npm run docs:dashboard\n  regenerates docs/images/dashboard-*.png (needs Java 17+ and /usr/bin/chromium)', {});

const images = join(import.meta.dirname, '..', 'docs', 'images');
const dynamo = await startDynamoLocal({});
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
process.env.TABLE_NAME = 'billing';
process.env.AWS_REGION ??= 'local';
process.env.OAUTH_DEV_SIGN_IN = 'true';
await ensureTable(dynamo.endpoint, 'billing');
// Imported only now: the table client reads DYNAMODB_ENDPOINT when its module loads.
const { startLocalApi } = await import('../lib/local/server');
const { runDueWork } = await import('../shared/domain/schedules/run-due');
const { backfillAnalytics } = await import('../shared/domain/analytics/backfill');
const keys = await generateKeys();
const api = await startLocalApi({ keys, port: 0, dashboard: true });
const workspace = 'ws_screenshots';
const token = await signToken(keys, { workspace, scope: 'read write admin', expiresInSeconds: 3600 });
const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(answer)}`);
  return answer;
};

// A sample workspace: an entity, a plan, three customers, a subscription with its first invoice, a key, an endpoint.
await call('POST', '/v1/invoicing-entities', { name: 'Acme SAS', country: 'FR', currency: 'EUR' });
const product = await call('POST', '/v1/products', { name: 'Pro plan', type: 'flat_fee' });
const price = await call('POST', '/v1/price-configurations', { product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount: 4_900 }], billing_interval: { period: 'months', count: 1 } });
const customers: Array<Record<string, any>> = [];
for (const [name, email] of [['Zephyr Labs', 'billing@zephyr.example'], ['Northwind GmbH', 'ap@northwind.example'], ['Globex', 'finance@globex.example']]) {
  customers.push(await call('POST', '/v1/customers', { name, billing_email: email, currency: 'EUR', billing_address: { country: 'FR' } }));
}
const subscription = await call('POST', '/v2/subscriptions', { customer_id: customers[0]!.id, products: [{ product_id: product.id, price_configuration_id: price.id, quantity: 2 }] });
await runDueWork(new Date(), { workspaces: new Set([workspace]) });
await call('POST', '/v1/api-keys', { name: 'CRM sync', scopes: ['read'] });
await call('POST', '/v1/webhooks/endpoints', { url: 'https://hooks.example.com/billing' });
const invoice = (await call('GET', `/v1/invoices?subscription_id=${subscription.id}`)).data[0];
await call('POST', `/v1/invoices/${invoice.id}/transactions`, { amount: 5_000, payment_method_type: 'transfer' });
// The catalog's other models and a metered product with its events (usage screens).
const seats = await call('POST', '/v1/products', { name: 'Team seats', type: 'seat' });
await call('POST', '/v1/price-configurations', { product_id: seats.id, currency: 'EUR', type: 'bulk', billing_interval: { period: 'months', count: 1 }, prices: [{ from: 1, to: 10, amount: 1_000 }, { from: 11, to: null, amount: 850 }] });
const coupon = await call('POST', '/v1/coupons', { name: 'Launch', type: 'percent', discount_percent: 15 });
await call('POST', '/v1/promotion-codes', { code: 'LAUNCH15', coupon_id: coupon.id });
const calls = await call('POST', '/v1/aggregators', { name: 'API calls', event_type: 'api_call', operation: 'sum', property: 'units', unit_name: 'call' });
const metered = await call('POST', '/v1/products', { name: 'API usage', type: 'dynamic', aggregator_id: calls.id });
const meteredPrice = await call('POST', '/v1/price-configurations', { product_id: metered.id, currency: 'EUR', type: 'volume', billing_interval: { period: 'months', count: 1 }, prices: [{ from: 1, to: null, amount: 10 }] });
await call('POST', '/v2/subscriptions', { customer_id: customers[1]!.id, products: [{ product_id: metered.id, price_configuration_id: meteredPrice.id, quantity: 1 }] });
await call('POST', '/v1/events/batch', [3, 9, 4].map((units, i) => ({ customer_id: customers[1]!.id, event_type: 'api_call', timestamp: new Date(Date.now() - i * 86_400_000).toISOString(), record: { id: `e-${i}`, units } })));
// No stream runs here: the analytics (home) are counted from the documents, as migrate:analytics does.
await backfillAnalytics({ workspace });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${api.url}/dashboard/`);
  await page.fill('#workspaces', workspace);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel(/Also allow/).check();
  await page.screenshot({ path: join(images, 'dashboard-consent.png') });
  await page.getByRole('button', { name: 'Allow' }).click();
  // Back at the dashboard with its tokens (leaving earlier would lose the refresh token being stored).
  await page.waitForURL((url) => url.pathname === '/dashboard/');
  await page.locator('main:not([aria-busy]) h1').waitFor();
  const screens: Array<[string, string]> = [
    ['home', '/dashboard/'],
    ['customers', '/dashboard/customers?search=a'],
    ['customer', `/dashboard/customers/${customers[0]!.id}`],
    ['subscription', `/dashboard/subscriptions/${subscription.id}`],
    ['invoices', '/dashboard/invoices'],
    ['invoice', `/dashboard/invoices/${invoice.id}`],
    ['developers', '/dashboard/developers'],
    ['catalog', '/dashboard/catalog'],
    ['product', `/dashboard/catalog/products/${seats.id}`],
    ['price-new', `/dashboard/catalog/products/${seats.id}/prices/new`],
    ['coupons', '/dashboard/catalog/coupons'],
    ['usage', `/dashboard/usage?customer_id=${customers[1]!.id}&aggregator_id=${calls.id}`],
    ['events', `/dashboard/usage/events?customer_id=${customers[1]!.id}`],
    ['settings', '/dashboard/settings'],
  ];
  for (const [name, path] of screens) {
    // A full load each time: the dashboard signs in again silently from the tab's refresh token.
    await page.goto(`${api.url}${path}`);
    await page.locator('main h1').waitFor();
    await page.locator('main:not([aria-busy])').waitFor();
    if (name === 'invoice') await page.locator('.pdf iframe').waitFor();
    if (name === 'home' || name === 'usage') await page.locator('figure.chart canvas').first().waitFor();
    await page.screenshot({ path: join(images, `dashboard-${name}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(images, 'dashboard-developers-phone.png'), fullPage: true });
  console.log(`Screenshots written to ${images}/dashboard-*.png`);
} finally {
  await browser.close();
  await api.close();
  await dynamo.stop();
}
