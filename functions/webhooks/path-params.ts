import { unknownIdParams } from '#shared/input-schemas';

// Path parameters of the webhook configuration routes, apart from their bodies
// (request-schemas.ts): a route bundles only the schemas it validates.
//
// A malformed path id answers `404 unknown_id_webhook_configuration`, as the persons
// routes do for theirs: no configuration can have it. Checked here so it never reaches a key.

export const configurationIdParams = unknownIdParams(
  'unknown_id_webhook_configuration',
  'no webhook configuration has this id',
);
