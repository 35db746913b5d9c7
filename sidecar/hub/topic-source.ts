import type { Snapshot, TopicContent } from "../build/snapshot.ts";

export type { TopicContent } from "../build/snapshot.ts";

/** Reads one topic by site path (`/feed.xml`); `undefined` when the build has no such file. */
export type TopicReader = (sitePath: string) => Promise<TopicContent | undefined>;

/**
 * The sidecar's reader: topics come from the snapshot the server answers from, so a notification
 * carries exactly the bytes and Content-Type that `GET /feed.xml` serves at that moment.
 */
export function snapshotTopicReader(current: () => Snapshot): TopicReader {
  return async (sitePath) => current().topics.get(sitePath);
}
