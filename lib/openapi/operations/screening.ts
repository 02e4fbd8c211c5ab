import { sanctionsEntryResponse } from '#functions/screening/openapi-responses';
import * as examples from '../examples/screening';
import type { OperationSpec } from './types';

/** The OpenAPI words of lib/service/screening.ts's routes, by route id. */
export const SCREENING_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  AddSanctionsEntry: {
    operationId: 'post-local-sanctions-entry',
    summary: 'Add a sanctions-list entry (local runtime only)',
    description:
      'Served by `npm start` only, never deployed. Adds an entry (`First Last` or `LAST, First`) to the sanctions list and re-screens at once: a verified person of that name (and date of birth, when both have one) is `restricted` when this answers.',
    tag: 'Local sandbox',
    requestBody: { name: 'SanctionsEntryRequest', examples: { entry: examples.SANCTIONS_ENTRY } },
    success: {
      status: 201,
      description: 'The entry, and how many persons it restricts now.',
      body: sanctionsEntryResponse,
      examples: { entry: examples.SANCTIONS_ENTRY_RESPONSE },
    },
  },
};
