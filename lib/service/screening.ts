import { ENTITY } from '#shared/db/entities';
import type { ServiceArea } from './types';

/**
 * Screening against the sanctions and alert lists: a change of the lists re-screens every
 * verified person against the listings it put, and every night every verified person is
 * screened against the whole lists, shard by shard. (A person's own screening is part of
 * its identification: persons.ts.)
 */
export const SCREENING: ServiceArea = {
  routes: [
    {
      id: 'AddSanctionsEntry',
      method: 'POST',
      path: '/local/sanctions/entries',
      scopes: ['write:persons'],
      handler: 'functions/screening/handlers/add-sanctions-entry.ts',
      // Puts the listing and the change and moves the lists' version, then re-screens every
      // verified person against it at once: the lists' version, the listing read back; the
      // persons' screening walk (byLookup), the persons, each one matching read again, its
      // hits recorded and restricted. The one route that writes the
      // lists (the deployed lists are written by the daily refresh, ListsRefresh, and `npm run lists:load`).
      table: [
        { actions: ['PutItem', 'UpdateItem', 'GetItem', 'BatchGetItem'], leadingKeys: ['screeningEntry'] },
        {
          actions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'Query', 'PutItem'],
          indexes: ['byLookup'],
          leadingKeys: ['tenantData'],
        },
      ],
      localOnly: true,
      crossTenant: 'walks the verified persons of every tenant (byLookup) to screen them against the new listing',
    },
  ],
  consumers: [
    {
      id: 'ListsRefresh',
      handler: 'functions/screening/handlers/lists-refresh.ts',
      // Before the daily re-screen (04:30), which then screens against what it wrote; OFAC
      // publishes in US business hours. Locally every 10 minutes, from SCREENING_LISTS_DIR.
      source: { kind: 'schedule', cron: { minute: '0', hour: '4' }, localEveryMs: 600_000 },
      // The stored listings of the sources it covers (the lists' partitions, byTenant, then
      // the listings) and the last refresh (the version item); the listings added, changed
      // and taken off, the change, the version and the note of the refresh.
      table: {
        actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
        indexes: ['byTenant'],
        leadingKeys: ['screeningEntry'],
      },
      // Five files of a few MB downloaded, about 4,700 listings compared; a first load writes them all.
      timeoutSeconds: 300,
    },
    {
      id: 'ScreeningWorker',
      handler: 'functions/screening/handlers/screening-worker.ts',
      source: { kind: 'queue', queue: 'screening', batchSize: 10 },
      // The change and its listings, or the whole lists (their version, the listings'
      // partition, the listings); one shard of the persons' screening walk (byLookup), the
      // persons, each one matching read again, its hits recorded (a Query of its partition, a
      // put per hit) and restricted; the rest of the shard handed on; the run's record.
      table: [
        { actions: ['GetItem', 'BatchGetItem'], indexes: ['byTenant'], leadingKeys: ['screeningEntry'] },
        {
          actions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'Query', 'PutItem'],
          indexes: ['byLookup'],
          leadingKeys: ['tenantData'],
        },
        { actions: ['UpdateItem'], leadingKeys: ['screeningRun'] },
      ],
      sendsTo: ['screening'],
      crossTenant: 'walks one shard of the persons of every tenant (byLookup), each screened acting for its own',
      timeoutSeconds: 60,
    },
    {
      id: 'DailyRescreen',
      handler: 'functions/screening/handlers/daily-rescreen.ts',
      source: { kind: 'schedule', cron: { minute: '30', hour: '4' }, localEveryMs: 600_000 },
      // One screening message per shard of the persons: the worker walks them.
      table: { actions: [] },
      sendsTo: ['screening'],
      timeoutSeconds: 30,
    },
  ],
  queues: {
    screening: { name: 'Screening', visibilityTimeoutSeconds: 360, maxReceiveCount: 5 },
  },
  // A change of the lists re-screens the verified persons, shard by shard (functions/screening/stream-rules.ts).
  streamRules: {
    filters: [{ eventName: ['INSERT'], entity: [ENTITY.screeningChange] }],
    table: { actions: [] },
    sendsTo: ['screening'],
  },
};
