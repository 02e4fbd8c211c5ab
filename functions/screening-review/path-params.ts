import * as z from 'zod/mini';
import { type HitAddress, parseHitId } from '#shared/db/screening-hits/index';

// Path parameters of the review routes. A hit id is opaque and names a tenant's person:
// one that does not parse answers `404 unknown_id_screening_hit`, like one that names no
// hit, and never reaches a key.

export const hitIdParams = z.object({
  id: z.pipe(
    z.string().check(
      z.refine((id) => parseHitId(id) !== undefined, {
        message: 'no screening hit has this id',
        params: { error_code: 'unknown_id_screening_hit', status: 404 },
      }),
    ),
    z.transform((id: string) => parseHitId(id) as HitAddress),
  ),
});
