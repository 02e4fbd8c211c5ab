/**
 * The list shards of the bench's sharded tenants, as the functions read them
 * (`TENANT_LIST_SHARDS`, a JSON object of tenant → shards; tenants not named have one).
 * One value for the whole process, set before any part starts a handler: a function may
 * read it once and keep it (`npm run bench` sets it in each part's process, ./part.ts).
 */
export const LIST_SHARDS = {
  /** The cost part's sustained run (test/bench/cost-sustained.ts). */
  costTenant: 'bench-sharded',
  /** The lists part's 100k accounts tenant loaded again, and its templates (test/bench/lists.ts). */
  listTenant: 'bench-accounts-large-sharded',
  listTemplates: 'bench-list-templates-sharded',
  shards: 8,
} as const;

export function useBenchListShards(): void {
  const { costTenant, listTenant, listTemplates, shards } = LIST_SHARDS;
  process.env.TENANT_LIST_SHARDS = JSON.stringify({
    [costTenant]: shards,
    [listTenant]: shards,
    [listTemplates]: shards,
  });
}
