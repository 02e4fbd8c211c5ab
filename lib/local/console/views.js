import { badge, h, shortId, time } from './dom.js';

/**
 * What each section shows, built from API answers as they come (docs/api.md): absent fields
 * stay empty, unknown enum values show as they are.
 */

/** @param {any[]} accounts `GET /verify/accounts` */
export const accountRows = (accounts) =>
  accounts.map((account) =>
    h(
      'tr',
      { data: { id: account.id } },
      h('td', {}, shortId(account.id)),
      h('td', {}, account.account_holder_name),
      h('td', {}, account.account_number),
      h('td', {}, account.type),
      h('td', {}, badge(account.verification_status), ' ', account.status_reason),
      h('td', {}, badge(account.debit_status), ' ', account.debit_status_reason),
      h('td', {}, badge(account.control_status)),
      h('td', {}, time(account.created_at)),
    ),
  );

/**
 * @param {any[]} persons `GET /persons`
 * @param {(id: string) => void} onHits shows the person's screening hits
 */
export const personRows = (persons, onHits) =>
  persons.map((person) =>
    h(
      'tr',
      { data: { id: person.id } },
      h('td', {}, shortId(person.id)),
      h('td', {}, person.customer_reference_id),
      h('td', {}, [person.first_name, person.middle_name, person.last_name].filter(Boolean).join(' ')),
      h('td', {}, badge(person.status)),
      h('td', {}, (person.status_reasons ?? []).map((/** @type {any} */ reason) => reason.reason_code).join(', ')),
      h('td', {}, time(person.created_at)),
      h('td', {}, h('button', { type: 'button', onclick: () => onHits(person.id) }, 'Hits')),
    ),
  );

/**
 * A person's screening hits as an operator sees them (`GET /screening/hits?tenant=…&person_id=…`).
 * @param {any[]} hits
 * @param {(id: string, decision: 'false_positive' | 'confirmed') => void} onDecide
 */
export const hitRows = (hits, onDecide) =>
  hits.map((hit) =>
    h(
      'tr',
      { data: { id: hit.id } },
      h('td', {}, hit.list, ' ', h('code', {}, hit.entry_id)),
      h('td', {}, hit.listed_name, hit.matched_name === hit.listed_name ? '' : ` (as ${hit.matched_name})`),
      h('td', {}, String(hit.score), ' · dob ', hit.date_of_birth_agreement),
      h('td', {}, badge(hit.status)),
      h('td', {}, hit.decision ? [hit.decision.decided_by, ' ', time(hit.decision.decided_at)] : ''),
      h(
        'td',
        {},
        hit.status === 'open'
          ? [
              h(
                'button',
                { type: 'button', onclick: () => onDecide(hit.id, 'false_positive') },
                'Clear (false positive)',
              ),
              ' ',
              h('button', { type: 'button', onclick: () => onDecide(hit.id, 'confirmed') }, 'Confirm'),
            ]
          : '',
      ),
    ),
  );

/**
 * @param {any[]} configurations `GET /webhooks/configurations`
 * @param {(id: string) => void} onDelete
 */
export const configurationRows = (configurations, onDelete) =>
  configurations.map((configuration) =>
    h(
      'tr',
      { data: { id: configuration.id } },
      h('td', {}, h('code', {}, configuration.url)),
      h('td', {}, configuration.event_types.join(', ')),
      h('td', {}, configuration.enabled ? 'yes' : 'no'),
      h('td', {}, time(configuration.created_at)),
      h('td', {}, h('button', { type: 'button', onclick: () => onDelete(configuration.id) }, 'Delete')),
    ),
  );

/**
 * One block per event: its envelope, the record it is about, and every delivery attempt.
 * @param {any[]} events `GET /events/{id}` answers, newest first
 * @param {(id: string) => void} onRedeliver
 */
export const eventBlocks = (events, onRedeliver) =>
  events.map((event) => {
    const [kind, record] = Object.entries(event.event_data ?? {})[0] ?? [];
    const attempts = event.attempts ?? [];
    return h(
      'article',
      { class: 'event', data: { eventId: event.event_id } },
      h(
        'header',
        {},
        h('strong', {}, event.event_type),
        event.test ? [' ', h('em', { class: 'test' }, 'test event')] : '',
        ' ',
        time(event.created_at),
        ' event ',
        h('code', {}, event.event_id),
        kind && [' · ', kind, ' ', record?.id ? shortId(record.id) : ''],
        ' ',
        h('button', { type: 'button', onclick: () => onRedeliver(event.event_id) }, 'Redeliver'),
      ),
      attempts.length === 0
        ? h(
            'p',
            { class: 'muted' },
            'No delivery attempt (yet): no enabled configuration subscribed to it, or on its way.',
          )
        : h(
            'table',
            { class: 'attempts' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['at', 'url', 'status', 'latency', 'error', ''].map((title) => h('th', {}, title)),
              ),
            ),
            h('tbody', {}, attempts.map(attemptRow)),
          ),
    );
  });

/** @param {any} attempt */
function attemptRow(attempt) {
  const delivered = attempt.status_code >= 200 && attempt.status_code < 300;
  return h(
    'tr',
    { class: delivered ? 'ok' : 'error' },
    h('td', {}, time(attempt.at)),
    h('td', {}, h('code', {}, attempt.url)),
    h('td', { class: 'status' }, attempt.status_code ?? '–'),
    h('td', {}, `${attempt.latency_ms} ms`),
    h('td', {}, attempt.error),
    h('td', {}, attempt.final ? 'final: gave up' : ''),
  );
}

/**
 * Each work queue's dead-letter queue, with a Redrive button when it holds any.
 * @param {any[]} queues `deadLetterQueues` of `GET /local/dead-letters`
 * @param {(queue: string) => void} onRedrive
 */
export const deadLetterQueueRows = (queues, onRedrive) =>
  queues.map((queue) =>
    h(
      'tr',
      { data: { queue: queue.queue } },
      h('td', {}, h('code', {}, queue.queue)),
      h('td', {}, queue.name),
      h('td', { class: 'count' }, queue.count),
      h(
        'td',
        {},
        queue.oldest && [
          shortId(queue.oldest.messageId),
          ' sent ',
          // Dead letters may be days old: the date too, not only the time of day.
          h(
            'time',
            { datetime: queue.oldest.sentAt, title: queue.oldest.sentAt },
            new Date(queue.oldest.sentAt).toLocaleString(),
          ),
          `, received ${queue.oldest.receiveCount} times`,
        ],
      ),
      h('td', {}, queue.count > 0 && h('button', { type: 'button', onclick: () => onRedrive(queue.queue) }, 'Redrive')),
    ),
  );

/**
 * The stream batches consumers gave up on, as AWS's on-failure message names them, with
 * their records' keys and a Replay each.
 * @param {any[]} failures `streamFailures` of `GET /local/dead-letters`
 * @param {(batch: { consumer: string, shardId: string, startSequenceNumber: string }) => void} onReplay
 */
export const streamFailureRows = (failures, onReplay) =>
  failures.map(({ consumer, batchInfo, attempts, error, at, records }) =>
    h(
      'tr',
      { data: { consumer, startSequenceNumber: batchInfo.startSequenceNumber } },
      h('td', {}, consumer),
      h('td', {}, h('code', {}, batchInfo.shardId)),
      h('td', {}, h('code', {}, `${batchInfo.startSequenceNumber}–${batchInfo.endSequenceNumber}`)),
      h('td', {}, batchInfo.batchSize),
      h('td', {}, attempts),
      h('td', {}, error),
      h('td', {}, time(at)),
      h(
        'td',
        {},
        records.map((/** @type {any} */ record) =>
          h('div', {}, record.eventName, ' ', h('code', {}, Object.values(record.keys).join(' '))),
        ),
      ),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            onclick: () =>
              onReplay({ consumer, shardId: batchInfo.shardId, startSequenceNumber: batchInfo.startSequenceNumber }),
          },
          'Replay',
        ),
      ),
    ),
  );
