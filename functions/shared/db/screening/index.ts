import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { ScreeningListRepository } from './repository';

export { ScreeningListRepository } from './repository';

/** The screening lists on the service's table. */
export const screeningLists = /* @__PURE__ */ port(
  'screeningLists',
  () => new ScreeningListRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningLists: ScreeningListRepository;
  }
}
