import type { Example } from './example';

// Examples of the local screening routes (./example.ts says what examples are held to).

export const SANCTIONS_ENTRY: Example = {
  summary: 'Sanction a verified person’s name',
  description: 'A verified person of that name (and date of birth, when both have one) becomes `restricted`.',
  value: { name: 'Jane Doe', date_of_birth: '1990-04-12' },
};

export const SANCTIONS_ENTRY_RESPONSE: Example = {
  summary: 'One person restricted',
  value: {
    entry: { id: 'local-5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f', name: 'Jane Doe', date_of_birth: '1990-04-12' },
    restricted: 1,
  },
};
