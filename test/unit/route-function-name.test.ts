import { routes } from '../../functions/routes';
import { routeFunctionName, routeFunctionPrefix } from '../../shared/mcp/route-function-name';

/** What Lambda accepts as a function name. */
const lambdaName = /^[A-Za-z0-9_-]{1,64}$/;

describe('route function names (the MCP function finds a tool\'s function by its name)', () => {
  test('a short stack name is the prefix; the name is <prefix>-<route id>', () => {
    expect(routeFunctionPrefix('BillingApi')).toBe('BillingApi');
    expect(routeFunctionName('BillingApi', 'getCustomer')).toBe('BillingApi-getCustomer');
  });

  test('the longest stack names still give every route a distinct, valid name, the same each time', () => {
    const longNames = [`Billing${'X'.repeat(121)}`, `Billing${'X'.repeat(120)}Y`];
    const prefixes = longNames.map(routeFunctionPrefix);
    expect(prefixes[0]).not.toBe(prefixes[1]); // same start, told apart by the hash
    for (const prefix of prefixes) {
      expect(prefix.length).toBeLessThanOrEqual(24);
      const names = routes.map((route) => routeFunctionName(prefix, route.id));
      for (const name of names) expect(name).toMatch(lambdaName);
      expect(new Set(names).size).toBe(routes.length);
      expect(routes.map((route) => routeFunctionName(prefix, route.id))).toEqual(names);
    }
  });

  test('past 64 characters a name is cut and completed by a hash of the whole, so two long ids still differ', () => {
    const prefix = 'P'.repeat(24);
    const [a, b] = [`${'r'.repeat(50)}One`, `${'r'.repeat(50)}Two`].map((id) => routeFunctionName(prefix, id));
    expect(a).toMatch(lambdaName);
    expect(a!.length).toBe(64);
    expect(a).not.toBe(b);
  });

  test('refuses what Lambda would refuse', () => {
    expect(() => routeFunctionName('Billing Api', 'getCustomer')).toThrow(/not a Lambda function name/);
    expect(() => routeFunctionName('BillingApi', 'get.customer')).toThrow(/not a Lambda function name/);
  });
});
