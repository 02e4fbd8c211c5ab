import { PERSON_EVENT_TYPES } from '../persons/events';
import { VERIFY_ACCOUNT_EVENT_TYPES } from '../verify-accounts/events';

/** Every event kind partners can subscribe to, joined from the areas that emit them. */
export const EVENT_TYPES = [...PERSON_EVENT_TYPES, ...VERIFY_ACCOUNT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
