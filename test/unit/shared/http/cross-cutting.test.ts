import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as control } from '#functions/verify-accounts/handlers/control';
import { handler as create } from '#functions/verify-accounts/handlers/create';
import { handler as getVerifyAccount } from '#functions/verify-accounts/handlers/get';
import { handler as list } from '#functions/verify-accounts/handlers/list';
import {
  ACCOUNT_ID,
  accountGets,
  accountWriteFails,
  controlEvent,
  createEvent,
  ddb,
  ERROR_BODY_KEYS,
  functionUnderTest,
  getEvent,
  givenStored,
  listEvent,
  storedAccount,
  useHandlerHarness,
  validCreateBody,
} from '#test/support/handler-harness';
import { type EventOptions, type HttpAnswer, type httpEvent, invoke, lambdaContext } from '#test/support/http-events';

const harness = useHandlerHarness();
const get = functionUnderTest('GetVerifyAccount', getVerifyAccount);

/** One request per Verify route, so every cross-cutting rule is checked on all four. */
const routes = [
  { name: 'POST /verify/accounts', handler: create, event: (o: EventOptions) => createEvent(validCreateBody(), o) },
  { name: 'GET /verify/accounts/{id}', handler: get, event: (o: EventOptions) => getEvent(ACCOUNT_ID, o) },
  { name: 'GET /verify/accounts', handler: list, event: (o: EventOptions) => listEvent('', o) },
  {
    name: 'POST /verify/accounts/{id}/control',
    handler: control,
    event: (o: EventOptions) => controlEvent(ACCOUNT_ID, { statement_code: '0000' }, o),
  },
];

describe('Service-Version header', () => {
  it.each(routes)(
    '$name: a request without Service-Version answers 400 version_missing and touches no data',
    async ({ handler, event }) => {
      const res = await invoke(handler, event({ headers: { 'service-version': undefined } }));

      expect(res.statusCode).toBe(400);
      expect(res.body.error_code).toBe('version_missing');
      expect(ddb.calls()).toHaveLength(0);
    },
  );

  it.each(routes)('$name: any value other than v2022-09-21 answers 400 version_invalid', async ({ handler, event }) => {
    const res = await invoke(handler, event({ headers: { 'service-version': 'v2023-01-01' } }));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('version_invalid');
  });

  it('treats an empty Service-Version as missing', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { headers: { 'service-version': '' } }));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('version_missing');
  });

  it('compares the version value exactly (V2022-09-21 is not the version)', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { headers: { 'service-version': 'V2022-09-21' } }));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('version_invalid');
  });

  it.each(['Service-Version', 'SERVICE-VERSION', 'sErViCe-VeRsIoN'])(
    'accepts the header name in any case (%s)',
    async (name) => {
      givenStored(storedAccount());
      const res = await invoke(
        get,
        getEvent(ACCOUNT_ID, { headers: { 'service-version': undefined, [name]: 'v2022-09-21' } }),
      );

      expect(res.statusCode).toBe(200);
      expect(res.body.account.id).toBe(ACCOUNT_ID);
    },
  );

  it('reads a wrong version in a header name of any case as version_invalid, not missing', async () => {
    const res = await invoke(
      get,
      getEvent(ACCOUNT_ID, { headers: { 'service-version': undefined, 'Service-Version': 'v1' } }),
    );

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('version_invalid');
  });
});

describe('JSON request bodies', () => {
  it.each(['{', '{"account_number": "123456789",', 'account_number=123456789', "{'a': 1}"])(
    'answers 400 invalid_json to a body that is not JSON (%s)',
    async (raw) => {
      const res = await invoke(create, createEvent(raw));

      expect(res.statusCode).toBe(400);
      expect(res.body.error_code).toBe('invalid_json');
    },
  );

  it.each([
    ['an array', '[]'],
    ['an array of objects', '[{"account_number":"123456789"}]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ])('answers 400 invalid_json to a JSON body that is %s rather than an object', async (_what, raw) => {
    const res = await invoke(create, createEvent(raw));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_json');
  });

  it('answers invalid_json on the control route too', async () => {
    const res = await invoke(control, controlEvent(ACCOUNT_ID, '{"statement_code":'));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_json');
  });

  it('reads a base64-encoded body as API Gateway delivers it', async () => {
    const event = createEvent(Buffer.from(JSON.stringify(validCreateBody())).toString('base64'));
    event.isBase64Encoded = true;

    const res = await invoke(create, event);

    expect(res.statusCode).toBe(200);
    expect(res.body.account.account_number).toBe('123456789');
  });
});

describe('error bodies', () => {
  const failing: [string, () => Promise<{ requestId: string; res: HttpAnswer }>][] = [
    [
      'version_missing',
      () => send(create, createEvent(validCreateBody(), { headers: { 'service-version': undefined } })),
    ],
    ['invalid_json', () => send(create, createEvent('{'))],
    ['missing_account_number', () => send(create, createEvent({}))],
    ['unknown_field', () => send(create, createEvent(validCreateBody({ nickname: 'x' })))],
    ['invalid_id', () => send(get, getEvent('not-a-uuid'))],
    ['unknown_id', () => send(get, getEvent(ACCOUNT_ID))],
    ['invalid_size', () => send(list, listEvent('size=501'))],
    ['unknown_parameter', () => send(list, listEvent('colour=blue'))],
    [
      'internal_server_error',
      () => {
        accountWriteFails(new Error('boom'));
        return send(create, createEvent(validCreateBody()));
      },
    ],
  ];

  it.each(failing)(
    '%s: the body holds exactly error_code, message, request_id and optional details',
    async (code, run) => {
      const { requestId, res } = await run();

      expect(res.body.error_code).toBe(code);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(res.body.request_id).toBe(requestId);
      for (const key of Object.keys(res.body)) expect(ERROR_BODY_KEYS).toContain(key);
      if ('details' in res.body) expect(typeof res.body.details).toBe('object');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    },
  );

  it('carries the API Gateway request id in the body and in the x-request-id header', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { requestId: 'apigw-req-42' }));

    expect(res.statusCode).toBe(404);
    expect(res.body.request_id).toBe('apigw-req-42');
    expect(res.headers['x-request-id']).toBe('apigw-req-42');
  });

  it('logs the request id of a rejected request so partners can quote it', async () => {
    await invoke(get, getEvent('not-a-uuid', { requestId: 'apigw-req-43' }));

    const lines = harness.logs.map((line) => JSON.parse(line));
    expect(lines.some((line) => line.request_id === 'apigw-req-43' && line.error_code === 'invalid_id')).toBe(true);
  });

  it('logs each request with API Gateway’s request id, the tenant and the Lambda invocation’s request id', async () => {
    givenStored(storedAccount());
    const context = lambdaContext();

    const res = await get(getEvent(ACCOUNT_ID, { requestId: 'apigw-req-44' }), context);

    expect(res.statusCode).toBe(200);
    const completed = harness.logs.map((line) => JSON.parse(line)).find((l) => l.message === 'request completed');
    expect(completed).toMatchObject({
      level: 'INFO',
      request_id: 'apigw-req-44',
      tenant: 'partner-a',
      route: 'GET /verify/accounts/{id}',
      status: 200,
      function_request_id: context.awsRequestId,
      service: 'verify-service',
    });
    expect(typeof completed.cold_start).toBe('boolean');
  });

  async function send(handler: Parameters<typeof invoke>[0], event: ReturnType<typeof httpEvent>) {
    return { requestId: event.requestContext.requestId, res: await invoke(handler, event) };
  }
});

describe('unexpected failures', () => {
  const cause = 'ProvisionedThroughputExceededException: table test-table key T#partner-a#VA';

  it('answers 500 internal_server_error whose message reveals nothing of the cause', async () => {
    accountWriteFails(new Error(cause));

    const res = await invoke(create, createEvent(validCreateBody(), { requestId: 'req-500' }));

    expect(res.statusCode).toBe(500);
    expect(Object.keys(res.body).sort()).toEqual(['error_code', 'message', 'request_id']);
    expect(res.body.error_code).toBe('internal_server_error');
    expect(res.body.request_id).toBe('req-500');
    for (const leak of ['Provisioned', 'test-table', 'T#', 'Exception', 'stack', '123456789']) {
      expect(res.raw).not.toContain(leak);
    }
  });

  it('logs the cause of a 500 at error level with the request id', async () => {
    ddb.on(GetCommand).rejects(new Error(cause));

    const res = await invoke(get, getEvent(ACCOUNT_ID, { requestId: 'req-501' }));

    expect(res.statusCode).toBe(500);
    const errors = harness.logs.map((line) => JSON.parse(line)).filter((line) => line.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0].request_id).toBe('req-501');
    expect(JSON.stringify(errors[0])).toContain('ProvisionedThroughputExceededException');
  });

  it('answers 500 when the tenant alias lookup itself fails', async () => {
    ddb.on(GetCommand, { Key: { pk: 'CLIENT#client-alias-fails', sk: 'ALIAS' } }).rejects(new Error(cause));

    const res = await invoke(list, listEvent('', { claims: { client_id: 'client-alias-fails' } }));

    expect(res.statusCode).toBe(500);
    expect(res.body.error_code).toBe('internal_server_error');
    expect(res.raw).not.toContain('Provisioned');
  });
});

describe('a dependency that is unavailable', () => {
  // What the SDK throws once its own retries are spent: throttling, a 5xx, a refused or
  // reset connection, a timeout. The request may be retried as it was (docs/api.md#retrying).
  const unavailable: [string, () => Error][] = [
    [
      'throttling (ProvisionedThroughputExceededException)',
      () => new ProvisionedThroughputExceededException({ message: 'throughput exceeded', $metadata: {} }),
    ],
    ['throttling (ThrottlingException)', () => new ThrottlingException({ message: 'rate exceeded', $metadata: {} })],
    ['throttling (RequestLimitExceeded)', () => new RequestLimitExceeded({ message: 'limit', $metadata: {} })],
    [
      'a 500 of the service (InternalServerError)',
      () => new InternalServerError({ message: 'internal', $metadata: { httpStatusCode: 500 } }),
    ],
    [
      'a 503 of the service',
      () =>
        Object.assign(new Error('Service Unavailable'), {
          name: 'ServiceUnavailable',
          $fault: 'server',
          $metadata: { httpStatusCode: 503 },
        }),
    ],
    [
      'a refused connection',
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
    ],
    ['a reset connection', () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a timeout', () => Object.assign(new Error('Connection timed out after 1000 ms'), { name: 'TimeoutError' })],
  ];

  it.each(unavailable)(
    '%s answers 503 service_unavailable with Retry-After and nothing of the cause',
    async (_name, error) => {
      accountWriteFails(error());

      const res = await invoke(create, createEvent(validCreateBody(), { requestId: 'req-503' }));

      expect(res.statusCode).toBe(503);
      expect(res.body.error_code).toBe('service_unavailable');
      expect(res.body.request_id).toBe('req-503');
      expect(res.body.details).toEqual({ retry_after_seconds: 1 });
      expect(res.headers['retry-after']).toBe('1');
      for (const leak of ['Provisioned', 'ECONN', '127.0.0.1', 'Exception', 'internal']) {
        expect(res.raw).not.toContain(leak);
      }
    },
  );

  it('is logged at error level with its cause, as a 500 is', async () => {
    ddb.on(GetCommand).rejects(new ThrottlingException({ message: 'rate exceeded', $metadata: {} }));

    const res = await invoke(get, getEvent(ACCOUNT_ID, { requestId: 'req-504' }));

    expect(res.statusCode).toBe(503);
    const errors = harness.logs.map((line) => JSON.parse(line)).filter((line) => line.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('ThrottlingException');
  });

  it('a failure that is not the dependency being away stays 500 (a refused condition, a bad request)', async () => {
    accountWriteFails(
      Object.assign(new Error('One or more parameter values were invalid'), {
        name: 'ValidationException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
      }),
    );

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(500);
    expect(res.body.error_code).toBe('internal_server_error');
  });
});

describe('tenant', () => {
  it('is the token’s client_id', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'client-cid', sub: 'subject-other' } }));

    expect(res.statusCode).toBe(404);
    expect(accountGets().map((c) => c.args[0].input.Key)).toEqual([{ pk: `T#client-cid#VA#${ACCOUNT_ID}`, sk: 'VA' }]);
  });

  it('is never the token’s sub: a token without client_id answers 401 unauthorized (tenant.test.ts has the rest)', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { claims: { sub: 'subject-only' } }));

    expect(res.statusCode).toBe(401);
    expect(res.body.error_code).toBe('unauthorized');
    expect(accountGets()).toHaveLength(0);
  });

  it('is the alias record’s tenant when the client id has one (credential rotation)', async () => {
    ddb.on(GetCommand, { Key: { pk: 'CLIENT#client-rotated', sk: 'ALIAS' } }).resolves({ Item: { tenant: 'acme' } });
    givenStored(storedAccount({ tenant: 'acme', account_holder_name: 'Acme Holder' }));

    const res = await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'client-rotated' } }));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.account_holder_name).toBe('Acme Holder');
    expect(ddb.commandCalls(GetCommand, { Key: { pk: 'CLIENT#client-rotated', sk: 'ALIAS' } })).toHaveLength(1);
    expect(accountGets().map((c) => c.args[0].input.Key?.pk)).toEqual([`T#acme#VA#${ACCOUNT_ID}`]);
  });

  it('stores a new account under the alias’s tenant', async () => {
    ddb.on(GetCommand, { Key: { pk: 'CLIENT#client-rotated-2', sk: 'ALIAS' } }).resolves({ Item: { tenant: 'acme' } });

    const res = await invoke(create, createEvent(validCreateBody(), { claims: { client_id: 'client-rotated-2' } }));

    expect(res.statusCode).toBe(200);
    const [item] = ddb
      .commandCalls(PutCommand)
      .map((call) => call.args[0].input.Item)
      .filter((put) => put?.entity === 'verify_account');
    expect(item?.tenant).toBe('acme');
    expect(item?.pk).toBe(`T#acme#VA#${res.body.account.id}`);
  });

  it('answers 401 unauthorized when the token names no client at all', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID, { claims: { scope: 'verify-service/read:verify-accounts' } }));

    expect(res.statusCode).toBe(401);
    expect(res.body.error_code).toBe('unauthorized');
    expect(accountGets()).toHaveLength(0);
  });
});
