import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RouteContract, routeContracts } from '#lib/openapi/contract';
import { ERROR_CODES, inputErrorCodes, PROVIDER_ONLY_CODES } from '#lib/openapi/error-codes';
import { toJsonSchema } from '#lib/openapi/json-schema';
import { REPO_ROOT } from '#lib/repo-root';
import { ROUTES, routeKey } from '#lib/service/index';

/**
 * The error codes of the OpenAPI document against the code: every code the source can
 * raise is documented with its meaning, and every code a route documents is one the code
 * reachable from its handler can raise (or its schemas answer). Codes are found in the
 * source where they are written: `new …Error('code', …)`, `error_code: 'code'` and the
 * schema helpers that take one.
 */
const ROOT = REPO_ROOT;

const CODE_PATTERNS = [
  /new \w*Error\(\s*(?:\d+,\s*)?'([a-z_]+)'/g,
  /super\(\s*\d+,\s*'([a-z_]+)'/g,
  /error_code: '([a-z_]+)'/g,
  /(?:idFilter|unknownIdParams)\(\s*'([a-z_]+)'/g,
];

const codesIn = (source: string): string[] =>
  CODE_PATTERNS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

/** Modules a module imports at run time (type-only imports aside), resolved as package.json `imports` does. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map(
    (m) => m[1] as string,
  );
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('#shared/')) return [join(ROOT, 'functions/shared', `${specifier.slice(8)}.ts`)];
    if (specifier.startsWith('#domain/')) return [join(ROOT, 'functions/domain', `${specifier.slice(8)}.ts`)];
    // Another area's module (the event catalogue's shared refusal, say): its codes are the handler's too.
    if (specifier.startsWith('#functions/')) return [join(ROOT, 'functions', `${specifier.slice(11)}.ts`)];
    // A data file (functions/domain/listed-spellings.json) raises nothing.
    if (specifier.endsWith('.json')) return [];
    if (specifier.startsWith('.'))
      return [resolve(dirname(file), specifier.endsWith('.ts') ? specifier : `${specifier}.ts`)];
    return [];
  });
}

function reachableFrom(file: string): Set<string> {
  const seen = new Set<string>();
  const pending = [file];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...runtimeImports(next));
  }
  return seen;
}

let contracts: RouteContract[];
beforeAll(async () => {
  contracts = await routeContracts(ROUTES);
});

const documentedCodes = (contract: RouteContract): string[] =>
  contract.responses.flatMap((response) =>
    response.variants.flatMap((variant) => (variant.kind === 'error' ? [...variant.codes.keys()] : [])),
  );

const derivedCodes = (contract: RouteContract): string[] => {
  const { badRequest, notFound } = inputErrorCodes(contract.request, contract.operation.bodyCompletion);
  return [...badRequest.keys(), ...notFound.keys()];
};

describe('error codes', () => {
  it('finds the codes in the source (the scan works)', () => {
    const raised = new Set(sourceFiles(join(ROOT, 'functions')).flatMap((file) => codesIn(readFileSync(file, 'utf8'))));
    expect(raised).toContain('too_many_requests');
    expect(raised).toContain('internal_server_error');
    expect(raised).toContain('unknown_id_person');
    expect(raised).toContain('missing_ownership_details');
  });

  it('explains every code the source raises, and no code that nothing raises or derives', () => {
    const raised = new Set(sourceFiles(join(ROOT, 'functions')).flatMap((file) => codesIn(readFileSync(file, 'utf8'))));
    const derived = new Set(contracts.flatMap(derivedCodes));
    expect([...raised].filter((code) => !(code in ERROR_CODES))).toEqual([]);
    expect(Object.keys(ERROR_CODES).filter((code) => !raised.has(code) && !derived.has(code))).toEqual([]);
  });

  it('documents, over all routes, exactly the codes the source raises and the schemas derive', () => {
    const raised = new Set(sourceFiles(join(ROOT, 'functions')).flatMap((file) => codesIn(readFileSync(file, 'utf8'))));
    const derived = new Set(contracts.flatMap(derivedCodes));
    const documented = new Set([...contracts.flatMap(documentedCodes), ...PROVIDER_ONLY_CODES]);
    expect([...raised, ...derived].filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !raised.has(code) && !derived.has(code))).toEqual([]);
  });

  it.each(ROUTES.map((route) => [routeKey(route), route.id]))(
    '%s documents only codes its handler’s code can raise or its schemas answer',
    (_key, id) => {
      const contract = contracts.find((candidate) => candidate.route.id === id) as RouteContract;
      const modules = reachableFrom(join(ROOT, contract.route.handler));
      const raisable = new Set([
        ...[...modules].flatMap((file) => codesIn(readFileSync(file, 'utf8'))),
        ...derivedCodes(contract),
      ]);
      const unreachable = documentedCodes(contract).filter((code) => !raisable.has(code));
      expect(unreachable, `modules: ${[...modules].map((file) => relative(ROOT, file)).join(', ')}`).toEqual([]);
    },
  );
});

/** The routes whose request body takes addresses and contacts (a person's writes), from their handlers' schemas. */
const WITH_ADDRESSES_AND_CONTACTS = (await routeContracts(ROUTES)).filter(({ request }) => {
  const properties = request.body && (toJsonSchema(request.body, 'input').properties as Record<string, unknown>);
  return properties !== undefined && 'addresses' in properties && 'contacts' in properties;
});

describe('codes of nested fields', () => {
  const NESTED_MISSING = [
    'missing_addresses_type',
    'missing_address1',
    'missing_city',
    'missing_state',
    'missing_country',
    'missing_zip5',
    'missing_contacts_type',
    'missing_contacts_value',
  ];

  it.each(WITH_ADDRESSES_AND_CONTACTS.map((contract) => [contract.route.id, contract] as const))(
    '%s documents the missing_ code of every required field of an address and a contact, whatever else their schemas say (an email contact’s anyOf)',
    (_id, contract) => {
      expect(documentedCodes(contract)).toEqual(expect.arrayContaining(NESTED_MISSING));
    },
  );

  it('finds such routes among the rows (the cases above are not vacuous)', () => {
    expect(WITH_ADDRESSES_AND_CONTACTS.length).toBeGreaterThan(0);
  });
});
