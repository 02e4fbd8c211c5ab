import { callLocal, describeFailure } from './api.js';
import { h, report } from './dom.js';
import { deadLetterQueueRows, streamFailureRows } from './views.js';

/**
 * The runtime's dead letters (docs/local.md#dead-letters), from its local endpoints, with a
 * Redrive per queue and a Replay per stream batch given up: an operator's view, read with
 * the page's refresh whether or not a token was taken, as dead letters are no tenant's.
 */

/**
 * The last answer shown, ages aside (they change every second): unchanged data is not
 * rebuilt, so a Redrive button under the pointer stays put.
 */
let shown = '';

/** @param {string} id */
const tbody = (id) => /** @type {HTMLElement} */ (document.querySelector(`#${id} tbody`));

export async function showDeadLetters() {
  const answer = await callLocal('GET', '/local/dead-letters');
  const text = JSON.stringify(answer, (key, value) => (key === 'ageSeconds' ? undefined : value));
  if (text === shown) return;
  shown = text;
  if (!answer.ok) return report('dead-letters-status', false, describeFailure(answer));
  report('dead-letters-status', true);
  const { deadLetterQueues, streamFailures, streamFailureAdvice } = answer.body;
  tbody('dead-letter-queues').replaceChildren(...deadLetterQueueRows(deadLetterQueues, redrive));
  tbody('stream-failures').replaceChildren(
    ...(streamFailures.length > 0
      ? streamFailureRows(streamFailures, replay)
      : [h('tr', {}, h('td', { colspan: 99, class: 'muted' }, 'None.'))]),
  );
  // What to do about them: the endpoint's words, the same as the command's and docs/local.md's.
  /** @type {HTMLElement} */ (document.getElementById('stream-failure-advice')).textContent =
    streamFailures.length > 0 ? streamFailureAdvice : '';
}

/**
 * `POST /local/dead-letters/redrive`: `runtime.queues.redrive`, SQS's message move task.
 * @param {string} queue
 */
async function redrive(queue) {
  report('redrive-output', true, '…');
  const answer = await callLocal('POST', '/local/dead-letters/redrive', { queue });
  report(
    'redrive-output',
    answer.ok,
    answer.ok
      ? `${answer.status}: ${answer.body.moved} message(s) of ${queue} moved back to their queue, each as a new message`
      : describeFailure(answer),
  );
  await showDeadLetters();
}

/**
 * `POST /local/dead-letters/replay`: `runtime.replayStreamFailure`, `npm run stream:replay` in
 * AWS. It answers once the consumer has run; the answer says what became of the batch.
 * @param {{ consumer: string, shardId: string, startSequenceNumber: string }} batch
 */
async function replay(batch) {
  report('replay-output', true, '…');
  const answer = await callLocal('POST', '/local/dead-letters/replay', batch);
  const replayed = answer.ok && answer.body.result === 'replayed';
  report('replay-output', replayed, answer.ok ? `${answer.status}: ${answer.body.message}` : describeFailure(answer));
  await showDeadLetters();
}
