import { httpHandler } from '#shared/http/handler';
import { decideHit } from '../decide-hit';
import { hitIdParams } from '../params';
import { presentHit } from '../present';
import { decisionBody } from '../schemas';

/** POST /screening/hits/{id}/decision — operators: clear an open hit as a false positive, or confirm it. */
export const handler = httpHandler({ params: hitIdParams, body: decisionBody }, async ({ params, body, clientId }) => {
  const hit = await decideHit(params.id, { decision: body.decision, by: clientId, note: body.note });
  return { body: { screening_hit: presentHit(hit) } };
});
