/**
 * The session tag a tenant role's credentials carry: the tenant they act for. The role's
 * policy names every key by it (`${aws:PrincipalTag/tenant}`, lib/service/tenant-access.ts).
 */
export const TENANT_SESSION_TAG = 'tenant';
