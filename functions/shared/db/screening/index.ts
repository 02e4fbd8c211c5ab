import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { ListingRepository } from './listings';
import { ScreeningListRepository } from './repository';

export { ListingRepository } from './listings';
export { ScreeningListRepository } from './repository';

/** The screening lists on the service's table. */
export const screeningLists = /* @__PURE__ */ port(
  'screeningLists',
  () => new ScreeningListRepository(documentClient(), tableName()),
);

/** The listed persons as the matcher reads them, and the lists' version. */
export const screeningListings = /* @__PURE__ */ port(
  'screeningListings',
  () => new ListingRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningLists: ScreeningListRepository;
    screeningListings: ListingRepository;
  }
}
