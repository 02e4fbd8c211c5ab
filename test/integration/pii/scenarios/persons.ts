import { EIN, SSNS, STRAY_EIN } from '../support';
import { dashed, digits, ok, person, refused, type Scenario } from './context';

/**
 * The Persons routes and the sanctions list: SSNs through create, change, replace, upsert
 * and close, then identification and screening.
 */
export const PERSON_SCENARIOS: Record<string, Scenario> = {
  'POST /persons': async ({ alice, runtime, state }) => {
    const verified = await alice.post(
      '/persons',
      person(dashed(SSNS.person), { first_name: 'Quinn', last_name: 'Quarry' }),
    );
    ok(verified);
    ok(await alice.post('/persons', person(digits(SSNS.rejected))));
    const closed = await alice.post('/persons', person(digits(SSNS.stray)));
    state.persons = { verified: verified.body.person.id, closed: closed.body.person.id };
    const reference = verified.body.person.customer_reference_id;
    refused(
      await alice.post('/persons', person(dashed(SSNS.stray), { customer_reference_id: reference })),
      409,
      'duplicate_customer_reference_id',
    );
    refused(await alice.post('/persons', person(dashed(EIN))), 400, 'invalid_social_security_number');
    refused(
      await alice.post('/persons', person(dashed(SSNS.stray), { tax_id: dashed(STRAY_EIN) })),
      400,
      'unknown_field',
    );
    refused(await alice.post('/persons', person(`${digits(SSNS.stray)}0`)), 400, 'invalid_social_security_number');
    await runtime.settle();
  },

  'GET /persons': async ({ alice }) => {
    ok(await alice.get('/persons?first_name=Quinn'));
    refused(await alice.get(`/persons?social_security_number=${dashed(SSNS.person)}`), 400, 'unknown_parameter');
    refused(await alice.get(`/persons?id=${digits(SSNS.person)}`), 400, 'invalid_orum_id');
  },

  'GET /persons/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/persons/${state.persons.verified}`));
    refused(await bob.get(`/persons/${state.persons.verified}`), 404, 'unknown_id_person');
    refused(await alice.get(`/persons/${digits(SSNS.person)}`), 404, 'unknown_id_person');
  },

  'DELETE /persons/{id}': async ({ alice, bob, state }) => {
    refused(await bob.delete(`/persons/${state.persons.closed}`), 404, 'unknown_id_person');
    ok(await alice.delete(`/persons/${state.persons.closed}`));
    refused(await alice.delete(`/persons/${dashed(SSNS.stray)}`), 404, 'unknown_id_person');
  },

  'PATCH /persons/{id}': async ({ alice, bob, runtime, state }) => {
    const path = `/persons/${state.persons.verified}`;
    ok(await alice.patch(path, { social_security_number: dashed(SSNS.patched) }));
    refused(
      await alice.patch(path, { social_security_number: `${dashed(SSNS.stray)}-1` }),
      400,
      'invalid_social_security_number',
    );
    refused(await alice.patch(path, { tax_id: digits(STRAY_EIN) }), 400, 'unknown_field');
    refused(await bob.patch(path, { social_security_number: dashed(SSNS.stray) }), 404, 'unknown_id_person');
    refused(
      await alice.patch(`/persons/${state.persons.closed}`, { social_security_number: dashed(SSNS.stray) }),
      409,
      'person_closed',
    );
    await runtime.settle();
  },

  'PUT /persons/{id}': async ({ alice, bob, runtime, state }) => {
    const path = `/persons/${state.persons.verified}`;
    const current = (await alice.get(path)).body.person;
    const replacement = person(digits(SSNS.replaced), {
      customer_reference_id: current.customer_reference_id,
      first_name: 'Quinn',
      last_name: 'Quarry',
    });
    ok(await alice.put(path, replacement));
    refused(await bob.put(path, replacement), 404, 'unknown_id_person');
    refused(await alice.put(path, { ...replacement, social_security_number: dashed(STRAY_EIN) }), 400);
    await runtime.settle();
  },

  'PUT /persons': async ({ alice, runtime }) => {
    const body = person(dashed(SSNS.upserted));
    ok(await alice.put('/persons', body));
    ok(await alice.put('/persons', { ...body, social_security_number: digits(SSNS.upserted) }));
    refused(await alice.put('/persons', { ...body, ssn: digits(SSNS.stray) }), 400, 'unknown_field');
    await runtime.settle();
  },

  'POST /local/sanctions/entries': async ({ alice, runtime }) => {
    // The verified person's name: the screening worker restricts them.
    const added = await alice.post('/local/sanctions/entries', { name: 'QUARRY, Quinn' });
    ok(added, 201);
    refused(await alice.post('/local/sanctions/entries', { name: 'Some One', date_of_birth: dashed(SSNS.stray) }), 400);
    refused(
      await alice.post('/local/sanctions/entries', { name: 'Some One', ssn: digits(SSNS.stray) }),
      400,
      'unknown_field',
    );
    await runtime.settle();
  },
};
