/**
 * An object built on first use instead of at import. Powertools' Logger and Metrics cost little to load but several
 * milliseconds to construct (reading the environment, opening their own Console on stdout and stderr), and every
 * route bundle would otherwise pay that in its cold import (`npm run bench`, "Bundles"; docs/operations.md). The
 * proxy forwards property reads, writes and deletes to the instance, so callers use it as the object itself.
 * Methods of its class come bound to it (they use private `#fields`, which a proxy as `this` cannot reach); a
 * function set on the instance itself (a test's `jest.spyOn`) comes as it is.
 */
export function lazily<T extends object>(create: () => T): T {
  let instance: T | undefined;
  const target = (): T => (instance ??= create());
  return new Proxy({} as T, {
    get: (_, property) => {
      const object = target();
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function' || Object.prototype.hasOwnProperty.call(object, property)) return value;
      return (value as (...args: unknown[]) => unknown).bind(object);
    },
    set: (_, property, value) => Reflect.set(target(), property, value),
    deleteProperty: (_, property) => Reflect.deleteProperty(target(), property),
    has: (_, property) => Reflect.has(target(), property),
  });
}
