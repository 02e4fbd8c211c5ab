import { describe, expect, it } from 'vitest';
import { freshReference, personBody, usePersonsRuntime } from './support';

// PUT /persons/{id} may change the customer reference id: the one path on which
// ReplacePerson puts the new reference record and deletes the old one (the grant audit,
// test/audit/grants-used.test.ts, found no test sending those).
const env = usePersonsRuntime();

describe('PUT /persons/{id} and the customer reference id', () => {
  it('PUT of a new customer_reference_id frees the old one for another person', async () => {
    const body = personBody();
    const { person } = (await env.alice.post('/persons', body)).body;
    const renamed = freshReference();
    const replaced = await env.alice.put(`/persons/${person.id}`, { ...body, customer_reference_id: renamed });
    expect(replaced.status).toBe(200);
    expect(replaced.body.person.customer_reference_id).toBe(renamed);
    const reused = await env.alice.post('/persons', personBody({ customer_reference_id: body.customer_reference_id }));
    expect(reused.status).toBe(200);
    expect(reused.body.person.id).not.toBe(person.id);
  });
});
