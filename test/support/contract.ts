import * as z from 'zod/mini';
import { RouteTable } from '#lib/local/gateway/route-table';
import { bodySchemaOf, gatewayErrorBody, type RouteContract, routeContract } from '#lib/openapi/contract';
import { GATEWAY_ERRORS } from '#lib/service/gateway-errors';
import { ROUTES, type RouteDefinition } from '#lib/service/index';

// Holds a real answer to the OpenAPI document's contract (lib/openapi/contract.ts): the
// status must be documented for the route the request matched, the body must parse with
// the documented schema (strict: an undocumented field fails), and the headers the document
// says are always there must be. A request that matches no route may only get API
// Gateway's own answers (404 before routing; 413 and 431 before anything), or an answer of
// a local endpoint of `npm start` (`/openapi.json`, …), which is outside the API.
// test/integration/harness.ts runs every `api()` response through it.

export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  /** Parsed JSON; the raw text for other content; undefined when empty. */
  readonly body: unknown;
}

const routes = new RouteTable(ROUTES);
const contracts = new Map<string, Promise<RouteContract>>();
function contractOf(route: RouteDefinition): Promise<RouteContract> {
  const known = contracts.get(route.id);
  if (known) return known;
  const contract = routeContract(route);
  contracts.set(route.id, contract);
  return contract;
}
const schemas = new Map<string, z.core.$ZodType | undefined>();

/** Throws, saying what differs, when the answer is not one the document describes. */
export async function checkAnswer(method: string, url: URL, answer: Answer): Promise<void> {
  const match = routes.match(method, url.pathname);
  if (!match) return checkNonRoute(`${method} ${url.pathname}`, answer);
  const route = match.route;
  const contract = await contractOf(route);
  const response = contract.responses.find((candidate) => candidate.status === answer.status);
  const where = `${route.method} ${route.path} (${route.id}) answered ${answer.status}`;
  if (!response) {
    const documented = contract.responses.map((candidate) => candidate.status).join(', ');
    throw new ContractError(`${where}, which the OpenAPI document does not list (it lists ${documented})`, answer);
  }
  const key = `${route.id} ${answer.status}`;
  if (!schemas.has(key)) schemas.set(key, bodySchemaOf(response));
  const schema = schemas.get(key);
  if (!schema) {
    if (answer.body !== undefined) throw new ContractError(`${where} with a body; the document says none`, answer);
  } else {
    const parsed = z.safeParse(schema, answer.body);
    if (!parsed.success) {
      throw new ContractError(`${where} with a body the documented schema refuses: ${issuesOf(parsed.error)}`, answer);
    }
  }
  for (const [name, { required }] of Object.entries(response.headers)) {
    if (required && answer.headers[name] === undefined)
      throw new ContractError(`${where} without the header ${name}`, answer);
  }
}

const GATEWAY_BEFORE_ROUTING = (['notFound', 'payloadTooLarge', 'headersTooLarge', 'internalError'] as const).map(
  (error) => [GATEWAY_ERRORS[error].statusCode, gatewayErrorBody(error)] as const,
);

function checkNonRoute(request: string, answer: Answer): void {
  const gatewayShaped = typeof answer.body === 'object' && answer.body !== null && 'message' in answer.body;
  if (!gatewayShaped) return; // a local endpoint's answer: not part of the API
  const expected = GATEWAY_BEFORE_ROUTING.find(([status]) => status === answer.status);
  if (!expected || !z.safeParse(expected[1], answer.body).success) {
    throw new ContractError(`${request} is no route, yet its answer is not one of API Gateway's`, answer);
  }
}

function issuesOf(error: z.core.$ZodError): string {
  return z.prettifyError(error).replaceAll('\n', ' ');
}

export class ContractError extends Error {
  constructor(message: string, answer: Answer) {
    super(`${message}\nbody: ${JSON.stringify(answer.body)}`);
    this.name = 'ContractError';
  }
}
