// The shape of the OpenAPI document's examples and the moments they share. The examples
// themselves are one file per area beside this one, named as the area's operations
// (../operations/<area>.ts); they use the sandbox's values (docs/sandbox.md), so that
// sending one provokes the outcome it names. Every example is parsed by the schema it
// illustrates (the handler's request schema, or the response schema) in the unit tests,
// so an example cannot drift from the contract either. Fictional values only.

export interface Example {
  readonly summary: string;
  readonly description?: string;
  readonly value: unknown;
}

/** When the examples' records were made. */
export const AT = '2026-01-31T12:00:00.000Z';
/** When they changed: a settled account, a decided hit, an event. */
export const LATER = '2026-01-31T12:00:01.250Z';
