import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ENTITY } from '../entities';
import { screeningKeys } from './keys';

/** What one message of a re-screen did, added to its shard's record. */
export interface RunProgress {
  /** The change's id, or the day's run (`daily#<time>`). */
  readonly runId: string;
  readonly kind: 'change' | 'daily';
  readonly shard: number;
  /** The lists' version the persons were screened against. */
  readonly listsVersion: number;
  readonly screened: number;
  /** Persons with a hit that counts (restricted now). */
  readonly matching: number;
  readonly restricted: number;
  /** The shard's walk ended with this message. */
  readonly done: boolean;
}

/**
 * The record of each re-screen (docs/data-model.md, `screening_run`): one item per run and
 * shard, each message of the walk adding what it screened, so an operator (or an audit)
 * sees that a change or a day reached every shard, how many persons, against which lists'
 * version, and when it completed. A redelivered message adds its counts again: the counts
 * are at least the persons screened, the completion is exact.
 */
export class ScreeningRunRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(progress: RunProgress, now: Date): Promise<void> {
    const at = now.toISOString();
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: screeningKeys.run(progress.runId, progress.shard),
        UpdateExpression: `SET entity = :entity, kind = :kind, lists_version = :version, started_at = if_not_exists(started_at, :at), last_at = :at${progress.done ? ', completed_at = :at' : ''} ADD screened :screened, matching :matching, restricted :restricted, version :one`,
        ExpressionAttributeValues: {
          ':entity': ENTITY.screeningRun,
          ':kind': progress.kind,
          ':version': progress.listsVersion,
          ':at': at,
          ':screened': progress.screened,
          ':matching': progress.matching,
          ':restricted': progress.restricted,
          ':one': 1,
        },
      }),
    );
  }
}
