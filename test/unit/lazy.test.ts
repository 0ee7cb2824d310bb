import { jest } from '@jest/globals';
import { lazily } from '../../shared/observability/lazy';

/** shared/observability/lazy.ts: the logger and metrics are built on first use, not when a bundle is imported. */
class Counter {
  #count = 0;
  label = 'counter';
  add(n: number): number {
    this.#count += n;
    return this.#count;
  }
}

test('builds nothing until first used, then once; methods reach private fields; writes and spies go to the instance', () => {
  const create = jest.fn(() => new Counter());
  const counter = lazily(create);
  expect(create).not.toHaveBeenCalled();

  expect(counter.add(2)).toBe(2);
  const { add } = counter; // detached: still bound to the instance
  expect(add(3)).toBe(5);
  counter.label = 'renamed';
  expect([counter.label, 'add' in counter, create.mock.calls.length]).toEqual(['renamed', true, 1]);

  const spy = jest.spyOn(counter, 'add').mockReturnValue(42);
  expect(counter.add(1)).toBe(42);
  spy.mockRestore();
  expect(counter.add(1)).toBe(6);
});
