export { WATERMARK_MARGIN_MS } from './bookmarks';
export type { ListKind } from './item';
export { positionKeys } from './keys';
export type { ListPage, ListPages, PageRequest, PageSource } from './repository';
export { invalidCursor, ListPositions } from './repository';
