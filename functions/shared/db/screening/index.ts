import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { ListingRepository } from './listings';
import { ScreeningRunRepository } from './runs';

export { ListingRepository } from './listings';
export { ScreeningRunRepository } from './runs';

/** The listed persons as the matcher reads them, and the lists' version. */
export const screeningListings = /* @__PURE__ */ port(
  'screeningListings',
  () => new ListingRepository(documentClient(), tableName()),
);

/** The record of each re-screen, shard by shard. */
export const screeningRuns = /* @__PURE__ */ port(
  'screeningRuns',
  () => new ScreeningRunRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningListings: ListingRepository;
    screeningRuns: ScreeningRunRepository;
  }
}
