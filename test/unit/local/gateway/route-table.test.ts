import { describe, expect, it } from 'vitest';
import { RouteTable } from '#lib/local/gateway/route-table';
import { ROUTES, type RouteDefinition } from '#lib/service/index';

const route = (method: RouteDefinition['method'], path: string): RouteDefinition => ({
  id: `${method} ${path}`,
  method,
  path,
  scopes: [],
  handler: 'unused.ts',
  table: { actions: [] },
});

describe('local route selection (as an HTTP API selects routes)', () => {
  const service = new RouteTable(ROUTES);

  it('selects the service route by exact method and path template', () => {
    expect(service.match('POST', '/verify/accounts')?.route.id).toBe('CreateVerifyAccount');
    expect(service.match('GET', '/verify/accounts')?.route.id).toBe('ListVerifyAccounts');
    expect(service.match('POST', '/verify/accounts/abc/control')).toMatchObject({
      route: { id: 'VerifyAccountControl' },
      pathParameters: { id: 'abc' },
    });
  });

  it('matches no route for another method on a known path (HTTP APIs answer 404, not 405)', () => {
    expect(service.match('DELETE', '/verify/accounts')).toBeUndefined();
    expect(service.match('HEAD', '/verify/accounts')).toBeUndefined();
  });

  it('gives {param} exactly one non-empty segment', () => {
    expect(service.match('GET', '/verify/accounts/a/b')).toBeUndefined();
    expect(service.match('GET', '/verify/accounts/')).toBeUndefined();
    expect(service.match('GET', '/verify/accounts/x/')).toBeUndefined();
  });

  it('URL-decodes path parameters, keeping a malformed escape as sent', () => {
    expect(service.match('GET', '/verify/accounts/a%2Fb%20c')?.pathParameters).toEqual({ id: 'a/b c' });
    expect(service.match('GET', '/verify/accounts/%E0%A4%A')?.pathParameters).toEqual({ id: '%E0%A4%A' });
  });

  it('compares literal segments case-sensitively', () => {
    expect(service.match('GET', '/Verify/accounts')).toBeUndefined();
  });

  it('prefers a literal segment over a parameter, whatever the table order', () => {
    const table = new RouteTable([route('GET', '/items/{id}'), route('GET', '/items/latest')]);
    expect(table.match('GET', '/items/latest')?.route.path).toBe('/items/latest');
    expect(table.match('GET', '/items/42')?.route.path).toBe('/items/{id}');
  });

  it('lets a greedy {name+} parameter take the rest of the path, after more specific routes', () => {
    const table = new RouteTable([route('GET', '/files/{path+}'), route('GET', '/files/{id}')]);
    expect(table.match('GET', '/files/one')?.route.path).toBe('/files/{id}');
    expect(table.match('GET', '/files/a/b%20c')).toMatchObject({
      route: { path: '/files/{path+}' },
      pathParameters: { path: 'a/b c' },
    });
    expect(table.match('GET', '/files/')).toBeUndefined();
  });
});
