import { HIT_DECISIONS, type HitRecord, planRecording } from '#domain/screening-review';
import { LOCAL_OPERATORS } from '#lib/local/operators';
import { PersonRepository, type StoredPerson } from '#shared/db/persons/index';
import { personListQuery } from '#shared/db/persons/list';
import { hitIdOf, ScreeningHitRepository } from '#shared/db/screening-hits/index';
import { cycle, httpEvent, scheduledEvent } from './lambda-events';
import { byTenant, PERSONS_TENANT, route, type Step, type World } from './workload';

/**
 * The lists' daily refresh and the operators' review of the hits screening found
 * (docs/api.md#hits-to-review). The refresh reads the sandbox lists from their folder, as
 * `npm start` does (environment.ts), and finds them as prepareTable loaded them: most days
 * OFAC changes nothing. Operators act with their own token (scope `review:screening`), across
 * tenants.
 */
/** An operator the table registers (prepareTable), as the stack registers context `operators`. */
const OPERATOR = LOCAL_OPERATORS[0];

/** The persons whose hits the operators decide: as many as there are invocations, oldest first. */
const decidedPersons = async (world: World) =>
  (await byTenant(world, personListQuery(PERSONS_TENANT, {}).partitions))
    .slice(0, world.invocations)
    .map((person) => String(person.id));

/**
 * An open hit for every person decided: those identification recorded (the persons workload
 * names a listed person first and every 25th), and for the others the same hit recorded as
 * a screening records it (planRecording, then the repository's transaction with the person), so each
 * decision takes an open hit, as an operator's does, rather than one decided already.
 */
async function openHits(world: World): Promise<HitRecord[]> {
  const hits = new ScreeningHitRepository(world.db, world.tableName);
  const people = new PersonRepository(world.db, world.tableName);
  const ids = await decidedPersons(world);
  const recorded = await Promise.all(ids.map((id) => hits.ofPerson(PERSONS_TENANT, id)));
  const found = recorded.flat().find((record) => record.status === 'open');
  if (!found) throw new Error('identification recorded no hit: the persons workload names no listed person');
  const open: HitRecord[] = [];
  for (const [n, id] of ids.entries()) {
    const own = (recorded[n] ?? []).filter((record) => record.status === 'open');
    if (own.length > 0) {
      open.push(...own);
      continue;
    }
    const screening = {
      tenant: PERSONS_TENANT,
      personId: id,
      screened: found.screened,
      listsVersion: found.listsVersion,
      at: new Date().toISOString(),
    };
    const person = (await people.getStored(PERSONS_TENANT, id)) as StoredPerson;
    const { writes } = planRecording(recorded[n] ?? [], screening, [found.hit]);
    const saved = await hits.record(writes, people.hitsUpdateInput(person, new Date()));
    open.push(...saved.filter((record) => record.status === 'open'));
  }
  return open;
}

/** An operator's pages: open hits newest first in a few sizes, the decided ones, one person's hits. */
const listQueries = (personId: string) => [
  '',
  'size=10',
  'status=open&size=20',
  'status=cleared',
  `tenant=${PERSONS_TENANT}&person_id=${personId}`,
];

export const SCREENING_STEPS: readonly Step[] = [
  {
    name: 'ListsRefresh',
    after: [],
    expect: ['ok'],
    events: async (world) => cycle([scheduledEvent('ListsRefresh')], world.invocations),
  },
  {
    name: 'ListScreeningHits',
    after: ['IdentificationWorker', 'ScreeningWorker'],
    expect: ['200'],
    events: async (world) => {
      const [first] = await decidedPersons(world);
      if (!first) throw new Error('no persons to list the hits of');
      return cycle(listQueries(first), world.invocations).map((query) =>
        httpEvent(route('ListScreeningHits'), { tenant: OPERATOR, query }),
      );
    },
  },
  {
    name: 'DecideScreeningHit',
    after: ['ListScreeningHits'],
    // A hit is decided once: with fewer open hits than invocations, the rest answer 409.
    expect: ['200', '409'],
    events: async (world) =>
      cycle(await openHits(world), world.invocations).map((hit, i) =>
        httpEvent(route('DecideScreeningHit'), {
          tenant: OPERATOR,
          pathParameters: {
            id: hitIdOf({ tenant: hit.tenant, personId: hit.personId, list: hit.hit.list, entryId: hit.hit.entryId }),
          },
          body: {
            decision: HIT_DECISIONS[i % HIT_DECISIONS.length],
            ...(i % 3 === 0 && { note: 'date of birth and address differ from the listing' }),
          },
        }),
      ),
  },
];
