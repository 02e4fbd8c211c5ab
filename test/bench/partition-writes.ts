import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { silentLog } from '#lib/local/log';
import { StreamCheckpoints } from '#lib/local/pipeline/stream-checkpoints';
import { StreamShards } from '#lib/local/pipeline/stream-shards';
import { TABLE_SCHEMA } from '#shared/db/schema';
import type { DynamoCall } from './metering';

/**
 * Where a run's write units land: every change the table's stream shows (NEW_AND_OLD_IMAGES)
 * as the writes DynamoDB makes for it, on the table partition of its `pk` and on the
 * partition of each index whose entry it puts, rewrites or deletes (TABLE_SCHEMA's
 * indexes), each sized by AWS's 1 KB rule. A partition here is one partition key value of
 * the table or of an index: DynamoDB may split a busy key's items over several physical
 * partitions only by sort key ranges, and every write of one key value still counts
 * against the 1,000 WCU/s of the partition that holds it (docs/performance.md#capacity-model).
 *
 * The stream does not show everything billed: a transaction bills each item twice, and a
 * write refused by its condition bills a unit without a change. Both come from the
 * metered calls (`WriteTarget`s): items named in a transaction have their next stream
 * change counted twice, refused writes one unit on their key's table partition.
 */

/** One partition: `table` or an index's name, and its partition key value. */
export interface PartitionKey {
  readonly index: string;
  readonly key: string;
}

/** Write units by partition (`<index> <key>`), with the entities written there. */
export class PartitionWrites {
  readonly units = new Map<string, { partition: PartitionKey; units: number; entities: Set<string> }>();
  /** Units by table or index, to compare with what DynamoDB reported (ConsumedCapacity). */
  readonly byIndex = new Map<string, number>();

  add(partition: PartitionKey, units: number, entity: string): void {
    if (units === 0) return;
    const id = `${partition.index} ${partition.key}`;
    const entry = this.units.get(id) ?? { partition, units: 0, entities: new Set<string>() };
    entry.units += units;
    entry.entities.add(entity);
    this.units.set(id, entry);
    this.byIndex.set(partition.index, (this.byIndex.get(partition.index) ?? 0) + units);
  }

  get total(): number {
    return [...this.byIndex.values()].reduce((sum, units) => sum + units, 0);
  }
}

/**
 * The writes of stream `records` (in stream order) and of the metered `calls` (in call
 * order) on each partition.
 */
export function partitionWrites(records: readonly DynamoDBRecord[], calls: readonly DynamoCall[]): PartitionWrites {
  const writes = new PartitionWrites();
  const transactional = new Map<string, number>();
  const itemId = (pk: string, sk: string) => `${pk}\u0000${sk}`;
  for (const target of calls.flatMap((call) => (call.error ? [] : call.targets))) {
    if (!target.transactional || target.action === 'ConditionCheck') continue;
    const id = itemId(target.pk, target.sk);
    transactional.set(id, (transactional.get(id) ?? 0) + 1);
  }
  for (const record of records) {
    // Time to live deletes are free (the stream marks them with the service's identity).
    if (record.userIdentity) continue;
    const { OldImage: before, NewImage: after, Keys: keys } = record.dynamodb ?? {};
    const pk = text(keys?.[TABLE_SCHEMA.partitionKey]);
    const id = itemId(pk, text(keys?.[TABLE_SCHEMA.sortKey]));
    const pending = transactional.get(id) ?? 0;
    if (pending > 0) transactional.set(id, pending - 1);
    const factor = pending > 0 ? 2 : 1;
    const entity = text((after ?? before)?.entity) || '?';
    writes.add({ index: 'table', key: pk }, factor * units(Math.max(itemSize(before), itemSize(after))), entity);
    for (const index of Object.values(TABLE_SCHEMA.indexes)) {
      for (const write of indexWrites(index, before, after)) {
        writes.add({ index: index.name, key: write.key }, factor * write.units, entity);
      }
    }
  }
  // A refused write changes nothing, so the stream has no record of it; AWS bills it.
  for (const call of calls) {
    const [first] = call.targets;
    if (call.error && first)
      writes.add({ index: 'table', key: first.pk }, call.writeUnits, `refused ${call.operation}`);
  }
  return writes;
}

type Image = Record<string, AttributeValue> | undefined;
type IndexSchema = (typeof TABLE_SCHEMA.indexes)[keyof typeof TABLE_SCHEMA.indexes];

/**
 * An index's writes for one change of an item: a put where the entry appears, a delete
 * where it goes, both where its key changes, one write where it stays and what it projects
 * changes, none where nothing it holds changes.
 */
function indexWrites(index: IndexSchema, before: Image, after: Image): { key: string; units: number }[] {
  const [old, next] = [indexEntry(index, before), indexEntry(index, after)];
  const size = (entry: Image) => units(itemSize(entry));
  const keyOf = (entry: Image) => text(entry?.[index.partitionKey]);
  if (!old && !next) return [];
  if (!old) return [{ key: keyOf(next), units: size(next) }];
  if (!next) return [{ key: keyOf(old), units: size(old) }];
  const sameKey = keyOf(old) === keyOf(next) && text(old[index.sortKey]) === text(next[index.sortKey]);
  if (!sameKey)
    return [
      { key: keyOf(old), units: size(old) },
      { key: keyOf(next), units: size(next) },
    ];
  if (JSON.stringify(sorted(old)) === JSON.stringify(sorted(next))) return [];
  return [{ key: keyOf(next), units: units(Math.max(itemSize(old), itemSize(next))) }];
}

/** The item's entry in the index: undefined unless it has both index keys (indexes are sparse). */
function indexEntry(index: IndexSchema, image: Image): Image {
  if (!image?.[index.partitionKey] || !image[index.sortKey]) return undefined;
  const names = [
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    index.partitionKey,
    index.sortKey,
    ...index.nonKeyAttributes,
  ];
  return Object.fromEntries(names.flatMap((name) => (image[name] ? [[name, image[name]]] : [])));
}

const sorted = (image: Record<string, AttributeValue>) =>
  Object.fromEntries(Object.entries(image).sort(([a], [b]) => a.localeCompare(b)));

/** Write units of an item of `bytes`: one per started KB (a change of nothing still writes one). */
const units = (bytes: number): number => (bytes === 0 ? 0 : Math.max(1, Math.ceil(bytes / 1024)));

const text = (value: AttributeValue | undefined): string => value?.S ?? value?.N ?? '';

/**
 * An item's size as DynamoDB counts it: each attribute's name plus its value (strings and
 * binaries by their bytes, numbers about one byte per two digits plus one, lists and maps
 * 3 bytes plus one per element plus their elements).
 */
export function itemSize(image: Image): number {
  if (!image) return 0;
  return Object.entries(image).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/[^0-9]/g, '').length / 2) + 1;
  if (value.B !== undefined) return Buffer.from(value.B, 'base64').length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + valueSize({ N: n }), 0);
  if (value.BS) return value.BS.reduce((sum, b) => sum + Buffer.from(b, 'base64').length, 0);
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M)
    return 3 + Object.entries(value.M).reduce((sum, [k, v]) => sum + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  return 0;
}

/**
 * A reader of the table's stream of its own, beside the runtime's poller (DynamoDB Streams
 * lets several read a shard): `drain()` returns every record written since the last drain.
 */
export class StreamTap {
  private constructor(
    private readonly shards: StreamShards,
    private readonly client: DynamoDBClient,
  ) {}

  static async open(endpoint: string, tableName: string): Promise<StreamTap> {
    const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const arn = Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${tableName} has no stream`);
    const checkpoints = new StreamCheckpoints(undefined, silentLog);
    await checkpoints.load(arn);
    return new StreamTap(new StreamShards(endpoint, arn, checkpoints, silentLog), client);
  }

  /** Every record since the last drain (from the oldest the first time), in stream order per shard. */
  async drain(): Promise<DynamoDBRecord[]> {
    const records: DynamoDBRecord[] = [];
    for (;;) {
      await this.shards.refresh();
      let progress = false;
      for (const shard of this.shards.readable()) {
        progress = (await this.shards.read(shard, () => true)) > 0 || progress;
        records.push(...shard.pending);
        this.shards.done(shard, shard.pending.length);
        if (shard.ended) {
          this.shards.finish(shard);
          progress = true;
        }
      }
      if (!progress) return records;
    }
  }

  close(): void {
    this.shards.destroy();
    this.client.destroy();
  }
}
