import { keptFloorHandler } from './kept';

/** The kept floor (./kept.ts): the floor plus middy, Powertools, zod and STS. */
export const handler = keptFloorHandler();
