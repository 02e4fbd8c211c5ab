import { describe, expect, it } from 'vitest';
import { routeContracts } from '#lib/openapi/contract';
import { toJsonSchema } from '#lib/openapi/json-schema';
import { ROUTES } from '#lib/service/index';
import { AppError } from '#shared/errors';
import { parseInput } from '#shared/validation';

/**
 * The page parameters every list shares (docs/api.md#lists): one cold page number may
 * ask the service to pass over at most 10,000 entries (`index × size`), on every route
 * that takes `index` and `size`, whichever area it belongs to.
 */
const listRoutes = (await routeContracts(ROUTES)).flatMap(({ route, request }) => {
  const properties = request.query && (toJsonSchema(request.query, 'output').properties as Record<string, unknown>);
  return properties && 'index' in properties && 'size' in properties ? [{ id: route.id, query: request.query }] : [];
});

function refusal(query: (typeof listRoutes)[number]['query'], input: Record<string, string>): AppError {
  try {
    parseInput(query as NonNullable<typeof query>, input, 'query');
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('list page parameters: the ceiling on a cold page number', () => {
  it('applies to every list route: exactly the rows that page with list positions take index and size', () => {
    const lists = ROUTES.filter((route) => route.listPositions).map((route) => route.id);

    expect(lists.length).toBeGreaterThan(0);
    expect(listRoutes.map((route) => route.id).sort()).toEqual(lists.sort());
  });

  describe.each(listRoutes)('$id', ({ query }) => {
    it.each([
      { index: '10000000', size: '500' },
      { index: '21', size: '500' },
      { index: '101' },
      { index: '10001', size: '1' },
      { index: '10001', size: '0' },
    ] as Record<string, string>[])(
      'refuses a page starting past 10,000 entries (%j): 400 invalid_index naming the limit and the time filters',
      (input) => {
        const error = refusal(query, input);

        expect(error.statusCode).toBe(400);
        expect(error.code).toBe('invalid_index');
        expect(error.message).toMatch(/10,000/);
        expect(error.message).toMatch(/start_time/);
        expect(error.message).not.toContain(input.index);
      },
    );

    it.each([
      { index: '20', size: '500' },
      { index: '100' },
      { index: '10000', size: '1' },
      { index: '10000', size: '0' },
    ] as Record<string, string>[])('accepts the deepest pages within the ceiling (%j)', (input) => {
      const parsed = parseInput(query as NonNullable<typeof query>, input, 'query') as { index: number };

      expect(parsed.index).toBe(Number(input.index));
    });
  });
});
