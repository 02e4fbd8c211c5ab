import { KEY_OWNER, KEY_PREFIX, type KeyKind, kindOfKey } from '#shared/db/key-kinds';
import type { TenantScope } from '#shared/tenant-scope';

// The per-invocation tenant check (issue 30): every key a command names (an item's
// partition key, a table Query's, an index Query's partition) belongs to one tenant, to no
// tenant, or to many (an index partition that spans them). It must be the tenant the code
// acts for when it sends the command (#shared/tenant-scope): a request's, from its token;
// a queue message's; a stream record's or a due item's. Outside any such work only a
// function whose row declares `crossTenant` may touch a tenant's key; inside a piece of
// work it opened itself (`actingFor`), even that one is held to the work's tenant. IAM
// cannot tell tenants apart inside a kind of key yet, so this is what catches a key built
// from the wrong tenant (docs/threat-model.md).

/** One tenant's key, no tenant's, or an index partition that spans tenants (`PSCREEN#…`, `SCREENHITS#…`). */
export type KeyOwner = { readonly tenant: string } | 'none' | 'many';

/** The tenant of a key of a tenant's kind: right after the prefix, up to `#` or the end (docs/data-model.md). */
const tenantAfter = (key: string, kind: KeyKind): string => key.slice(KEY_PREFIX[kind].length).split('#')[0] as string;

/**
 * Whose a key is. A table key of no kind is the grant check's to refuse (undefined here);
 * an index partition not of a kind (`STATEMENT_CODE_SENT#3`) gathers many tenants' items.
 */
export function ownerOfKey(key: string, on: 'table' | 'index'): KeyOwner | undefined {
  const kind = kindOfKey(key);
  if (kind === undefined) return on === 'index' ? 'many' : undefined;
  return KEY_OWNER[kind] === 'none' ? 'none' : { tenant: tenantAfter(key, kind) };
}

/** What the check needs of one noted command (test/support/table-access-recorder.ts). */
export interface ScopedCommand {
  readonly sender: { readonly id: string; readonly row: { readonly crossTenant?: string } } | undefined;
  readonly command: string;
  readonly requests: readonly {
    readonly pk?: string;
    readonly index?: string;
    readonly partition?: string;
    readonly filedUnder?: readonly string[];
  }[];
  /** The scope it was sent in, as it was then. */
  readonly scope?: Readonly<TenantScope>;
}

/** The reverse check's name for a declared crossing (test/audit/grants-used.test.ts). */
export const crossingUse = (id: string): string => `${id}: crosses tenants`;

/** A function's declared crossing, as the reverse check names it: it must be used by some test. */
export const declaredCrossing = (fn: NonNullable<ScopedCommand['sender']>): string[] =>
  fn.row.crossTenant ? [crossingUse(fn.id)] : [];

/**
 * The commands' tenant problems, each with its way out, and the declared crossings they
 * used (for the reverse check).
 */
export function tenantCrossings(commands: readonly ScopedCommand[]): { problems: string[]; crossed: string[] } {
  const problems: string[] = [];
  const crossed: string[] = [];
  for (const { sender, command, requests, scope } of commands) {
    if (!sender) continue;
    const acting = scope?.tenant;
    // A declared function crosses freely outside the pieces of work it names a tenant for.
    const free = sender.row.crossTenant !== undefined && scope?.of !== 'work';
    for (const request of requests) {
      const key = request.index === undefined ? request.pk : request.partition;
      const on = request.index === undefined ? 'table' : 'index';
      const owner = key === undefined ? (on === 'index' ? 'many' : undefined) : ownerOfKey(key, on);
      if (owner === undefined || owner === 'none') continue;
      if (owner !== 'many' && owner.tenant === acting) continue;
      if (free) {
        crossed.push(crossingUse(sender.id));
        continue;
      }
      problems.push(problem(sender.id, command, request, owner, acting));
    }
    // An item filed under another tenant's list partition would show in that tenant's list.
    for (const request of requests) {
      for (const partition of request.filedUnder ?? []) {
        const owner = ownerOfKey(partition, 'index');
        if (typeof owner !== 'object' || owner.tenant === acting) continue;
        if (free) crossed.push(crossingUse(sender.id));
        else
          problems.push(
            `${sender.id} sent ${command} on ${request.pk}, filing it under the index partition ${partition} of tenant ${owner.tenant}, ${acting === undefined ? 'acting for no tenant' : `while acting for ${acting}`}: build the index key from the tenant the work acts for`,
          );
      }
    }
  }
  return { problems, crossed };
}

function problem(
  id: string,
  command: string,
  request: ScopedCommand['requests'][number],
  owner: Exclude<KeyOwner, 'none'>,
  acting: string | undefined,
): string {
  const what =
    request.index === undefined
      ? `${request.pk}, a key of tenant ${(owner as { tenant: string }).tenant}`
      : owner === 'many'
        ? `index ${request.index} partition ${request.partition ?? '(unread)'}, which spans tenants`
        : `index ${request.index} partition ${request.partition}, of tenant ${owner.tenant}`;
  const sent = `${id} sent ${command} on ${what}`;
  if (acting !== undefined)
    return `${sent}, while acting for ${acting}: build the key from the tenant the work acts for, or run the work for the other tenant in actingFor (#shared/tenant-scope)`;
  return `${sent}, acting for no tenant: name the tenant of the work (actingFor in #shared/tenant-scope; a queue worker's tenantOf), or, if it must reach many tenants, say why in crossTenant of its row in lib/service`;
}
