import { ENTITY } from '#shared/db/entities';
import type { ServiceArea } from './types';

/**
 * Screening against the sanctions and alert lists: a new sanctions entry re-screens the
 * persons of its name, and every night each name on the list is screened again. (A person's own
 * screening is part of its identification: persons.ts.)
 */
export const SCREENING: ServiceArea = {
  routes: [
    {
      id: 'AddSanctionsEntry',
      method: 'POST',
      path: '/local/sanctions/entries',
      scopes: ['write:persons'],
      handler: 'functions/screening/handlers/add-sanctions-entry.ts',
      // Puts the listing and its entry and moves the lists' version, then re-screens its name
      // at once: the entries and persons of that name (screening index), each person and its
      // restriction. The one row that writes a screening entry (the deployed lists are
      // loaded by `npm run lists:load`).
      table: [
        { actions: ['PutItem', 'UpdateItem', 'Query'], leadingKeys: ['screeningEntry'] },
        { actions: ['GetItem', 'UpdateItem'], indexes: ['byLookup'], leadingKeys: ['tenantData'] },
      ],
      localOnly: true,
    },
  ],
  consumers: [
    {
      id: 'ScreeningWorker',
      handler: 'functions/screening/handlers/screening-worker.ts',
      source: { kind: 'queue', queue: 'screening', batchSize: 10 },
      // The sanctions entries of a name, the persons of that name (screening index), each person and its restriction.
      table: [
        { actions: ['Query'], leadingKeys: ['screeningEntry'] },
        { actions: ['GetItem', 'UpdateItem'], indexes: ['byLookup'], leadingKeys: ['tenantData'] },
      ],
      timeoutSeconds: 60,
    },
    {
      id: 'DailyRescreen',
      handler: 'functions/screening/handlers/daily-rescreen.ts',
      source: { kind: 'schedule', cron: { minute: '30', hour: '4' }, localEveryMs: 600_000 },
      // Walks the sanctions list's names page by page.
      table: { actions: [], indexes: ['byTenant'] },
      sendsTo: ['screening'],
      timeoutSeconds: 300,
    },
  ],
  queues: {
    screening: { name: 'Screening', visibilityTimeoutSeconds: 360, maxReceiveCount: 5 },
  },
  // A new or changed sanctions entry re-screens its name (functions/screening/stream-rules.ts).
  streamRules: {
    filters: [{ eventName: ['INSERT', 'MODIFY'], entity: [ENTITY.screeningEntry] }],
    table: { actions: [] },
    sendsTo: ['screening'],
  },
};
