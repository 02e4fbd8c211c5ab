import * as z from 'zod/mini';

// Path parameters of the event routes, apart from their list filters (request-schemas.ts): a
// route bundles only the schemas it validates.

export const eventIdParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
