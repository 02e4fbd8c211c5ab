import { port } from '#shared/dependencies';
import { FetchTransport } from './fetch-transport';

/** Webhooks go out over HTTP with Node's fetch; tests may replace the transport. */
export const webhookTransport = /* @__PURE__ */ port('webhookTransport', () => new FetchTransport());
