import { SSNS } from '../support';
import { dashed, digits, ok, refused, type Scenario } from './context';

/**
 * The operators' review routes: the hit of the person the sanctions scenario restricted
 * listed and decided by an operator, with SSNs sent where they do not belong (query
 * parameters, an unknown body field, a hit id); a partner's token is refused.
 */
export const REVIEW_SCENARIOS: Record<string, Scenario> = {
  'GET /screening/hits': async ({ alice, operator, state }) => {
    const listed = await operator.get(`/screening/hits?tenant=tenant-pii&person_id=${state.persons.verified}`);
    ok(listed);
    state.hitId = listed.body.screening_hits[0]?.id;
    ok(await operator.get('/screening/hits'));
    refused(await operator.get(`/screening/hits?ssn=${dashed(SSNS.person)}`), 400, 'unknown_parameter');
    refused(await operator.get(`/screening/hits?person_id=${digits(SSNS.person)}`), 400);
    refused(await alice.get('/screening/hits'), 403);
  },

  'POST /screening/hits/{id}/decision': async ({ alice, operator, state }) => {
    refused(await alice.post(`/screening/hits/${state.hitId}/decision`, { decision: 'confirmed' }), 403);
    refused(
      await operator.post(`/screening/hits/${state.hitId}/decision`, {
        decision: 'confirmed',
        social_security_number: dashed(SSNS.person),
      }),
      400,
      'unknown_field',
    );
    refused(await operator.post(`/screening/hits/${digits(SSNS.person)}/decision`, { decision: 'confirmed' }), 404);
    ok(
      await operator.post(`/screening/hits/${state.hitId}/decision`, {
        decision: 'confirmed',
        note: 'name and date of birth checked',
      }),
    );
    refused(await operator.post(`/screening/hits/${state.hitId}/decision`, { decision: 'false_positive' }), 409);
  },
};
