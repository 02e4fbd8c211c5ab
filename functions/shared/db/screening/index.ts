import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { ListingRepository } from './listings';

export { ListingRepository } from './listings';

/** The listed persons as the matcher reads them, and the lists' version. */
export const screeningListings = /* @__PURE__ */ port(
  'screeningListings',
  () => new ListingRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningListings: ListingRepository;
  }
}
