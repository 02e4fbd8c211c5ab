import * as z from 'zod/mini';

// Path parameters of the verify-account routes, apart from their bodies and list filters
// (request-schemas.ts): a route bundles only the schemas it validates.

export const accountIdParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
