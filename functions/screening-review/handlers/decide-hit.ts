import { httpHandler } from '#shared/http/handler';
import { actingFor } from '#shared/tenant-scope';
import { decideHit } from '../decide-hit';
import { hitIdParams } from '../path-params';
import { presentHit } from '../present';
import { decisionBody } from '../request-schemas';

/** POST /screening/hits/{id}/decision — operators only: clear an open hit as a false positive, or confirm it. */
export const handler = httpHandler(
  { params: hitIdParams, body: decisionBody },
  async ({ params, body, clientId }) => {
    // The operator acts on the tenant whose person the hit names (#shared/tenant-scope).
    const hit = await actingFor(params.id.tenant, () =>
      decideHit(params.id, { decision: body.decision, by: clientId, note: body.note }),
    );
    return { body: { screening_hit: presentHit(hit) } };
  },
  { operatorsOnly: true },
);
