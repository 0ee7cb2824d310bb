import { clockPartition } from '../../db/due-keys';
import { operatorPartition } from '../../db/keys';
import { queryItems } from '../../db/query';
import { TEST_CLOCKS_COLLECTION } from '../test-clocks/test-clock';
import { duePages, upToKey, type DueEntry } from './due-index';

/**
 * What came due in the workspaces on a test clock (docs/test-clocks.md): each one's partition of the scheduling
 * index up to its clock's time, read whole every run like the late partitions (an advance runs its due work at once;
 * this finds what it left, such as an entry the index showed only after the advance looked). Test workspaces are few
 * and their partitions small: one Query of `OPS#TEST_CLOCKS`, one a clock.
 */
export async function* dueOnTestClocks(): AsyncGenerator<DueEntry[]> {
  const { items: clocks } = await queryItems<{ workspace: string; frozen_time: string }>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': operatorPartition(TEST_CLOCKS_COLLECTION) } });
  for (const { workspace, frozen_time } of clocks) {
    for await (const page of duePages(clockPartition(workspace), '', upToKey(new Date(frozen_time)))) if (page.length > 0) yield page;
  }
}
