import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { ListPositions } from '../list-positions/index';
import { HitList } from './list';
import { ScreeningHitRepository } from './repository';

export type { HitAddress } from './hit-id';
export { hitIdOf, parseHitId } from './hit-id';
export { HitList } from './list';
export type { TransactUpdate } from './repository';
export { HITS_PER_WRITE, ScreeningHitRepository } from './repository';

/** The hits to review on the service's table. */
export const screeningHits = /* @__PURE__ */ port(
  'screeningHits',
  () => new ScreeningHitRepository(documentClient(), tableName()),
);

/** Every tenant's hits by review status, on the list's positions. */
export const hitList = /* @__PURE__ */ port(
  'hitList',
  () => new HitList(new ListPositions(documentClient(), tableName())),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningHits: ScreeningHitRepository;
    hitList: HitList;
  }
}
