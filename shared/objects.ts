/** The members of a partial update that were given: `undefined` means omitted (kept), `null` means cleared. */
export const definedMembers = <T extends object>(input: T): Partial<T> =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
