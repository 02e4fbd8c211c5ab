import { type BenchResults, type BenchResultsFile, GOALS, type Verdict } from './results';
import { round } from './stats';
import { TENANT_CEILING_SUBJECT, verdictLookup } from './verdicts';

// What `npm run bench` prints: the results as Markdown tables, each figure beside its goal.
// The ✓ and ✗ are the results' own verdicts (./verdicts.ts); nothing here compares a figure.

type Find = ReturnType<typeof verdictLookup>;

/** ✓ for a met goal, ✗ for a missed one, nothing for a figure no goal judges (or not measured). */
export const markOf = (verdict: Verdict | undefined): string => (verdict ? (verdict.meets ? '✓' : '✗') : '');

/** A figure and its mark, e.g. `1.718 ✗`. */
const marked = (value: number | string, verdict: Verdict | undefined) =>
  verdict ? `${value} ${markOf(verdict)}` : `${value}`;

/** Which run the figures are of: the floor and every init time move with the Node.js version. */
export function runLine(run: BenchResults['run']): string {
  const load = run.load === undefined ? '' : ` (load ${run.load} as it started)`;
  const parts = run.parts ? `; parts run: ${run.parts.map((part) => `\`${part}\``).join(', ')}` : '';
  const reused = run.reused?.length
    ? ` (${run.reused.map((part) => `\`${part}\``).join(', ')} taken from the previous run's process, not measured again)`
    : '';
  return `Run of ${run.at.slice(0, 10)} at commit \`${run.commit}\`, Node.js ${run.node}, ${run.cpus} cores${load}${parts}${reused}`;
}

/**
 * The floor and every function's bundle, init and peak RSS against it, and its cold request
 * when the run measured them (runs before issue 32, or skipping them, have no such columns).
 */
export function functionTable(r: Pick<BenchResults, 'floor' | 'handlers'>, find: Find): string[] {
  const cold = r.handlers.some((h) => h.cold_ratio !== undefined);
  const floorCold = cold && r.floor.cold_ms !== undefined ? `, cold request ${r.floor.cold_ms} ms` : '';
  const coldCells = (h: BenchResults['handlers'][number]) =>
    cold
      ? ` ${h.cold_ms ?? '–'} | ${h.cold_ratio === undefined ? '–' : marked(h.cold_ratio, find('cold_ratio', h.name))} |`
      : '';
  return [
    `Floor (one GetCommand, bundled as the stack bundles): ${r.floor.bundle_bytes.toLocaleString('en')} bytes, init ${r.floor.init_ms} ms, peak RSS ${r.floor.rss_mb} MB${floorCold}`,
    '',
    `| function | bundle bytes | ×floor (≤ ${GOALS.bundleRatio}) | init ms | ×floor (≤ ${GOALS.initRatio}) | peak RSS MB | ×floor (≤ ${GOALS.rssRatio}) |${cold ? ` cold request ms | ×floor (≤ ${GOALS.coldRatio}) |` : ''}`,
    `| --- | ---: | ---: | ---: | ---: | ---: | ---: |${cold ? ' ---: | ---: |' : ''}`,
    ...r.handlers.map(
      (h) =>
        `| ${h.name} | ${h.bundle_bytes.toLocaleString('en')} | ${marked(h.bundle_ratio, find('bundle_ratio', h.name))} | ${h.init_ms} | ${marked(h.init_ratio, find('init_ratio', h.name))} | ${h.rss_mb} | ${marked(h.rss_ratio, find('rss_ratio', h.name))} |${coldCells(h)}`,
    ),
  ];
}

/**
 * The kept floors (test/bench/floor/kept.ts) against the floor, and each function against
 * the kept floor whose extras it bundles: what the decisions cost, and what is the
 * function's own. Empty for results without kept floors (before issue 32).
 */
export function keptFloorTables(r: Pick<BenchResults, 'floor' | 'handlers'>): string[] {
  const kept = r.floor.kept ?? [];
  if (kept.length === 0) return [];
  const ratio = (value: number | undefined) => (value === undefined || value === 0 ? '–' : value.toFixed(3));
  const cold = kept.some((k) => k.cold_ratio !== undefined);
  const calls = (figures: { readonly cold_calls?: Readonly<Record<string, number>> }) =>
    figures.cold_calls
      ? Object.entries(figures.cold_calls)
          .map(([call, n]) => `${call} ${n}`)
          .join(', ') || 'none'
      : '–';
  const coldHeads = cold ? [' cold request ×floor | its first request’s calls |', ' ---: | --- |'] : ['', ''];
  return [
    'Kept floors: the floor plus the packages every function carries by decision (middy, Powertools’ Logger, zod/mini, STS’s AssumeRole on the first request), with Powertools’ Metrics, the KMS and the SQS client as named; each ÷ the floor, same run:',
    '',
    `| kept floor | extras | bundle bytes | ×floor | init ×floor | peak RSS ×floor |${coldHeads[0]}`,
    `| --- | --- | ---: | ---: | ---: | ---: |${coldHeads[1]}`,
    ...kept.map(
      (k) =>
        `| ${k.name} | ${k.extras.join(', ') || '–'} | ${k.bundle_bytes.toLocaleString('en')} | ${ratio(k.bundle_ratio)} | ${ratio(k.init_ratio)} | ${ratio(k.rss_ratio)} |${cold ? ` ${ratio(k.cold_ratio)} | ${calls(k)} |` : ''}`,
    ),
    '',
    'Each function ÷ its kept floor (its ratio to the floor over the kept floor’s): what its own code costs.',
    '',
    `| function | kept floor | bytes | init | peak RSS |${cold ? ' cold request | its first request’s calls |' : ''}`,
    `| --- | --- | ---: | ---: | ---: |${cold ? ' ---: | --- |' : ''}`,
    ...r.handlers.map(
      (h) =>
        `| ${h.name} | ${h.kept_floor ?? '–'} | ${ratio(h.over_kept?.bundle_ratio)} | ${ratio(h.over_kept?.init_ratio)} | ${ratio(h.over_kept?.rss_ratio)} |${cold ? ` ${ratio(h.over_kept?.cold_ratio)} | ${calls(h)} |` : ''}`,
    ),
  ];
}

/** The results as Markdown tables, each figure beside its goal (✓ met, ✗ missed). */
export function report(r: BenchResultsFile): string {
  const find = verdictLookup(r.verdicts);
  const lines: string[] = [];
  if (r.run) lines.push(runLine(r.run), '');
  if (r.floor && r.handlers) {
    const functions = { floor: r.floor, handlers: r.handlers };
    const kept = keptFloorTables(functions);
    lines.push(...functionTable(functions, find), '', ...(kept.length > 0 ? [...kept, ''] : []));
  }
  if (r.screening) {
    const s = r.screening;
    lines.push(
      `Screening at full list size (${s.listings.toLocaleString('en')} listed persons, ${s.names.toLocaleString('en')} names): index built in ${s.build_ms} ms (${s.build_rru} read units to read the listings, once per cold worker or list change); one screening ${s.screen_median_ms} ms median, ${s.screen_p99_ms} ms p99, ${s.screen_rru} read unit (the lists' version)`,
      `A list change (one listing) re-screening ${s.walk.persons.toLocaleString('en')} verified persons: ${s.walk.change_ms} ms, ${s.walk.change_rru} read units (${s.walk.change_rru_per_million.toLocaleString('en')} per million persons); the daily re-screen against the whole lists: ${s.walk.daily_ms} ms (${s.walk.daily_seconds_per_million.toLocaleString('en')} s of scoring and reading per million persons, one process)`,
      '',
    );
  }
  if (r.overhead_ratio) {
    lines.push(
      `| HTTP handler | overhead ratio (≤ ${GOALS.overheadRatio}) |`,
      '| --- | ---: |',
      ...Object.entries(r.overhead_ratio).map(
        ([name, ratio]) => `| ${name} | ${marked(ratio, find('overhead_ratio', name))} |`,
      ),
      '',
    );
  }
  if (r.list) lines.push(...listTables(r.list, find));
  if (r.pipeline) {
    const p = r.pipeline;
    lines.push(
      `Pipeline: ${p.events} events, ${marked(`${p.events_per_s}/s`, find('events_per_s'))} (≥ ${GOALS.pipelineEventsPerS}), p50 ${p.p50_ms} ms, p99 ${marked(`${p.p99_ms} ms`, find('p99_ms'))} (≤ ${GOALS.pipelineP99Ms})`,
      '',
    );
  }
  if (r.cost) lines.push(...costTables(r.cost, find));
  return lines.join('\n');
}

function listTables(list: BenchResults['list'], find: Find): string[] {
  const lines = [
    `| list page | 1k ms | 100k ms | ratio (≤ ${GOALS.listRatio}) |`,
    '| --- | ---: | ---: | ---: |',
    ...list.rows.map(
      (row) => `| ${row.name} | ${row.ms_1k} | ${row.ms_100k} | ${marked(row.ratio, find('list_ratio', row.name))} |`,
    ),
    '',
  ];
  const rru = list.list_rru_per_page;
  if (rru) {
    const rruRow = (name: string, small: number, large: number) => {
      const verdict = find('list_rru_ratio', name);
      return `| ${name} | ${small} | ${large} | ${marked(verdict?.value ?? round(large / small, 3), verdict)} |`;
    };
    lines.push(
      `| GET /verify/accounts page 0 size 100: read units | 1k | 100k | ratio (≤ ${GOALS.listRruRatio}) |`,
      '| --- | ---: | ---: | ---: |',
      rruRow('unfiltered', rru['1k'], rru['100k']),
      rruRow('verification_status=valid', rru['1k_filtered'], rru['100k_filtered']),
      '',
    );
  }
  const shards = list.shard_ratio;
  if (shards) {
    lines.push(
      `| 100k accounts, list shards | 1 shard ms | 8 shards ms | ratio (≤ ${GOALS.shardRatio}) | its reads alone, 1 / 8 ms | their ratio |`,
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...shards.rows.map(
        (row) =>
          `| ${row.name} | ${row.ms_1_shard} | ${row.ms_8_shards} | ${marked(row.ratio, find('shard_ratio', row.name))} | ${row.floor_ms_1_shard ?? '–'} / ${row.floor_ms_8_shards ?? '–'} | ${row.floor_ratio ?? '–'} |`,
      ),
      '',
    );
  }
  if (list.sequential_ratio !== undefined && list.cursor_ratio !== undefined) {
    lines.push(
      `Page 50 at 100k ÷ page 0 (worst case, ≤ ${GOALS.listRatio}): page by page ${marked(list.sequential_ratio, find('sequential_ratio'))}, by \`Link\` cursor ${marked(list.cursor_ratio, find('cursor_ratio'))}, a cold \`index=50\` ${list.cold_ratio ?? '–'} (for reference)`,
      '',
    );
  }
  return lines;
}

function costTables(c: BenchResults['cost'], find: Find): string[] {
  const usd = (value: number) => `$${round(value, 2)}`;
  return [
    `| cost per million verifications (DynamoDB, Lambda, SQS, KMS, SES, API) | USD | goal |`,
    '| --- | ---: | ---: |',
    `| status, sustained: ${c.load} | ${marked(usd(c.usd_per_million_verifications), find('usd_per_million_verifications'))} | ≤ $${GOALS.usdPerMillion} |`,
    ...Object.entries(c.usd_per_million_by_type).map(([type, value]) => `| ${type}, one at a time | ${usd(value)} | |`),
    '',
    `Sustained: ${c.wcu_per_verification} WRU, ${c.rcu_per_verification} RRU, ${c.invocations_per_verification} invocations per verification.`,
    '',
    `| tenant list shards | ceiling verifications/s (≥ ${GOALS.tenantCeilingPerS.toLocaleString('en')}) | limiting partition |`,
    '| ---: | ---: | --- |',
    ...Object.values(c.capacity).map((m) => {
      // The goal judges the tenant with the goal's shards; the other row is for reading.
      const verdict =
        m.tenant_shards === GOALS.tenantShards
          ? find('tenant_ceiling_verifications_per_s', TENANT_CEILING_SUBJECT)
          : undefined;
      return `| ${m.tenant_shards} | ${marked(m.tenant_ceiling_verifications_per_s.toLocaleString('en'), verdict)} | ${m.limiting_partition} |`;
    }),
    '',
  ];
}
