/**
 * An object built on first use instead of at import. Powertools' Logger and Metrics cost little to load but several
 * milliseconds to construct (reading the environment, opening their own Console on stdout and stderr), and every
 * route bundle would otherwise pay that in its cold import (`npm run bench`, "Bundles"; docs/operations.md). The
 * proxy forwards every property read and write to the instance, methods bound to it, so callers use it as the
 * object itself.
 */
export function lazily<T extends object>(create: () => T): T {
  let instance: T | undefined;
  const target = (): T => (instance ??= create());
  return new Proxy({} as T, {
    get: (_, property) => {
      const object = target();
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    set: (_, property, value) => Reflect.set(target(), property, value),
    has: (_, property) => Reflect.has(target(), property),
  });
}
