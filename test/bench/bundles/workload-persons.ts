import { personListQuery } from '#shared/db/persons/list';
import { cycle, httpEvent, scheduledEvent, sqsEvent } from './lambda-events';
import { byTenant, PERSONS_TENANT, route, type Step, times, type World } from './workload';

/**
 * The persons API, identification and screening. Persons carry what identification needs
 * (SSN, date of birth, address), so each one is identified; the first and every
 * twenty-fifth after bear a name of the sandbox sanctions list (docs/sandbox.md#persons), so
 * screening finds someone however few persons a run creates.
 */
const FIRST = ['Maria', 'James', 'Aiyana', 'Wei', 'Olusegun', 'Priya', 'Lukas', 'Sofia', 'Mateo', 'Hannah'];
const LAST = ['Garcia', 'Smith', 'Nguyen', 'Okafor', 'Kowalski', 'Haddad', 'Rossi', 'Tanaka', 'Murphy', 'Silva'];
const LISTED = [
  ['Sandy', 'Sanctioned'],
  ['Casey Quinn', 'Doblisted'],
  ['Robin', 'Twiceborn'],
  ['Jordan', 'Circadate'],
] as const;

function personBody(i: number, reference = `crm-${i}`) {
  const [first, last] =
    i % 25 === 0 ? (LISTED[i % LISTED.length] as readonly [string, string]) : [FIRST[i % 10], LAST[(i * 7) % 10]];
  return {
    customer_reference_id: reference,
    first_name: first,
    last_name: last,
    date_of_birth: `19${60 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
    social_security_number: `${String(100 + (i % 600)).padStart(3, '0')}-${String(10 + (i % 89))}-${String(1000 + i).slice(-4)}`,
    addresses: [
      {
        type: 'home',
        address1: `${100 + i} Main Street`,
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip5: '62701',
      },
    ],
    contacts: [
      { type: 'email', value: `person${i}@example.com` },
      { type: 'phone', value: `+1415555${String(1000 + (i % 8999)).padStart(4, '0')}` },
    ],
    metadata: { crm_id: `c-${i}`, segment: i % 2 ? 'retail' : 'smb' },
  };
}

/** The tenant's persons (id and status, as the list index projects them), oldest first. */
const persons = (world: World) => byTenant(world, personListQuery(PERSONS_TENANT, {}).partitions);

/** As for accounts: first pages of a few sizes, filters most persons pass, one reference lookup. */
const LIST_QUERIES = [
  'size=10',
  'size=20',
  'index=1&size=10',
  'status=verified&size=10',
  'customer_reference_id=crm-42',
  'start_time=2020-01-01T00:00:00Z&size=10',
];

/** PATCH bodies partners send: new contacts, metadata, or a move (which identifies the person again). */
const patches = [
  (i: number) => ({ contacts: [{ type: 'email', value: `new${i}@example.com` }] }),
  (i: number) => ({ metadata: { crm_id: `c-${i}`, tier: 'gold' } }),
  (i: number) => ({
    addresses: [
      { type: 'home', address1: `${i} Oak Avenue`, city: 'Portland', state: 'OR', country: 'US', zip5: '97201' },
    ],
  }),
  () => ({ middle_name: 'Lee' }),
];

const ids = async (world: World) => (await persons(world)).map((person) => String(person.id));

export const PERSON_STEPS: readonly Step[] = [
  {
    name: 'CreatePerson',
    after: [],
    expect: ['200'],
    events: async (world) =>
      times(world.invocations, (i) =>
        httpEvent(route('CreatePerson'), {
          tenant: PERSONS_TENANT,
          body: personBody(i),
          ...(i % 4 === 0 && { idempotencyKey: `person-${i}` }),
        }),
      ),
  },
  {
    name: 'GetPerson',
    after: ['CreatePerson'],
    expect: ['200'],
    events: async (world) =>
      cycle(await ids(world), world.invocations).map((id) =>
        httpEvent(route('GetPerson'), { tenant: PERSONS_TENANT, pathParameters: { id } }),
      ),
  },
  {
    name: 'ListPersons',
    after: ['CreatePerson'],
    expect: ['200'],
    events: async (world) =>
      cycle(LIST_QUERIES, world.invocations).map((query) =>
        httpEvent(route('ListPersons'), { tenant: PERSONS_TENANT, query }),
      ),
  },
  {
    name: 'IdentificationWorker',
    after: ['StreamRouter'],
    expect: ['ok'],
    events: async (world) =>
      cycle(world.queues.bodies('identification'), world.invocations).map((body) => sqsEvent('identification', [body])),
  },
  {
    name: 'DailyRescreen',
    // At 04:30, after the lists' refresh at 04:00.
    after: ['ListsRefresh'],
    expect: ['ok'],
    events: async (world) => times(world.invocations, () => scheduledEvent('DailyRescreen')),
  },
  {
    name: 'ScreeningWorker',
    after: ['DailyRescreen', 'IdentificationWorker'],
    expect: ['ok'],
    events: async (world) =>
      cycle(world.queues.bodies('screening'), world.invocations).map((body) => sqsEvent('screening', [body])),
  },
  {
    name: 'UpdatePerson',
    // After the operators' decisions too, whose lifted holds are versioned writes of the persons.
    after: ['ScreeningWorker', 'GetPerson', 'ListPersons', 'DecideScreeningHit'],
    expect: ['200'],
    events: async (world) =>
      cycle(await ids(world), world.invocations).map((id, i) =>
        httpEvent(route('UpdatePerson'), {
          tenant: PERSONS_TENANT,
          pathParameters: { id },
          body: (patches[i % patches.length] as (i: number) => unknown)(i),
          ...(i % 4 === 0 && { idempotencyKey: `patch-${i}` }),
        }),
      ),
  },
  {
    name: 'ReplacePerson',
    after: ['UpdatePerson'],
    expect: ['200'],
    // A new customer reference each: the old reference's item goes, the new one's is put.
    events: async (world) =>
      cycle(await ids(world), world.invocations).map((id, i) =>
        httpEvent(route('ReplacePerson'), {
          tenant: PERSONS_TENANT,
          pathParameters: { id },
          body: personBody(i, `ref-${id}`),
        }),
      ),
  },
  {
    name: 'UpsertPerson',
    after: ['ReplacePerson'],
    expect: ['200', '201'],
    // Half replace a person by its (new) reference, half create one.
    events: async (world) =>
      cycle(await ids(world), world.invocations).map((id, i) =>
        httpEvent(route('UpsertPerson'), {
          tenant: PERSONS_TENANT,
          body: personBody(i + 1, i % 2 === 0 ? `ref-${id}` : `upserted-${i}`),
        }),
      ),
  },
  {
    name: 'ClosePerson',
    after: ['UpsertPerson'],
    expect: ['200'],
    events: async (world) =>
      cycle((await ids(world)).slice(0, world.invocations), world.invocations).map((id, i) =>
        httpEvent(route('ClosePerson'), {
          tenant: PERSONS_TENANT,
          pathParameters: { id },
          ...(i % 4 === 0 && { idempotencyKey: `close-${i}` }),
        }),
      ),
  },
];
