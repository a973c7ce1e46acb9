/**
 * `port` with each of its methods wrapped once, at construction: a call settles as the port's method
 * does, except that a failure is replaced by what `translate` makes of it (the adapter's outage
 * translation, which turns a database that cannot serve into DependencyUnavailableError). The wrappers
 * are plain functions built once, not a proxy consulted on every call: downloads call the store on
 * their hot path. A failure thrown before the method's promise exists rejects the same way, so every
 * call of a guarded port answers with a promise, except the methods named in `opens`: each answers at
 * once with a gathering (AdoptionStore.openCheckWindow), a failure thrown translated and thrown, and
 * the gathering's `write()` failing as a guarded method does.
 */
export function guardPort<Port extends object>(port: Port, translate: (error: unknown) => unknown, opens: readonly (keyof Port & string)[] = []): Port {
  const guarded: Record<string, unknown> = {};
  const fail = (error: unknown): never => {
    throw translate(error);
  };
  for (const name of methodNames(port)) {
    const method = (port as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
    if ((opens as readonly string[]).includes(name)) {
      guarded[name] = (...args: unknown[]): unknown => {
        let gathering: { write(): Promise<void> };
        try {
          gathering = method.apply(port, args) as typeof gathering;
        } catch (error) {
          return fail(error);
        }
        const write = gathering.write.bind(gathering);
        gathering.write = async () => {
          try {
            await write();
          } catch (error) {
            fail(error);
          }
        };
        return gathering;
      };
      continue;
    }
    guarded[name] = (...args: unknown[]): unknown => {
      let result: unknown;
      try {
        result = method.apply(port, args);
      } catch (error) {
        return Promise.reject(translate(error));
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
          throw translate(error);
        })
        : result;
    };
  }
  return guarded as Port;
}

/** The names of the functions `object` has, its own and its classes', without the constructor. */
function methodNames(object: object): Set<string> {
  const names = new Set<string>();
  for (let level: object | null = object; level && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(level, name);
      if (descriptor && typeof descriptor.value === 'function') names.add(name);
    }
  }
  return names;
}
