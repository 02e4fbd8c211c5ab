import { unknownIdParams } from '#shared/input-schemas';

// Path parameters of the person routes, apart from their bodies and list filters
// (request-schemas.ts): a route bundles only the schemas it validates.
//
// A malformed path id answers `404 unknown_id_person`, as Orum documents for it: no
// person can have such an id, so it is not found, and a client written for Orum expects
// that code (Verify's routes answer `400 invalid_id`). Checked here so it never reaches a key.

export const personIdParams = unknownIdParams('unknown_id_person', 'no person has this id');
