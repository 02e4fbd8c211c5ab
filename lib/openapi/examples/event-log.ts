import { type Example, LATER } from './example';
import { REJECTED_PERSON } from './persons';

// Examples of the event log's routes (./example.ts says what examples are held to).

const event = {
  event_id: '0b5c9a4e-3f1d-5c2a-9e7b-1a2b3c4d5e6f',
  event_type: 'person_rejected',
  created_at: LATER,
  event_data: { person: REJECTED_PERSON },
};

export const EVENT_RESPONSES = {
  list: { summary: 'One page', value: { events: [event] } },
  withAttempts: {
    summary: 'An event and its delivery attempts',
    value: {
      event: {
        ...event,
        attempts: [
          { at: LATER, url: 'https://hooks.acme.example/orum', status_code: 503, latency_ms: 87 },
          { at: '2026-01-31T12:00:06.400Z', url: 'https://hooks.acme.example/orum', status_code: 200, latency_ms: 64 },
        ],
      },
    },
  },
} satisfies Record<string, Example>;
