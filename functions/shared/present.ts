/**
 * What every presenter does last: fields that do not apply or are not known yet are
 * omitted, never null, and so are empty lists (docs/api.md#omitted-never-null).
 */
export function omitAbsent<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}
