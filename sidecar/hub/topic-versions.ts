import type pg from "pg";
import type { CurrentTopic, Offer } from "./deliveries.ts";

/**
 * Each topic's content as published, in `hub_topic_versions`: what queued deliveries send, read by
 * whichever instance runs the job, so a subscriber gets exactly the published bytes even from an
 * instance that has not reloaded yet. Only the newest version keeps its body.
 */

export interface StoredVersion {
  id: number;
  hash: string;
  contentType: string;
  body: Uint8Array;
}

/** Runs inside the publish transaction with the subscriptions owed the new version. */
export type OnNewVersion = (client: pg.PoolClient, owed: number[], hash: string) => Promise<void>;

/**
 * Makes `content` the topic's current version unless it already is, and then, in the same
 * transaction, calls `onNew` for the subscriptions owed it. Other instances learn of the build
 * from its own announcement (sidecar/db/build-broadcast.ts), not from here. Content equal to an
 * older version (a revert) becomes current again, unless `revert` is false. Returns how many
 * subscriptions are owed.
 * Publishes of one topic are serialised by an advisory lock, so two instances cannot both win.
 */
export async function publishVersion(
  pool: pg.Pool,
  topic: string,
  content: CurrentTopic,
  now: number,
  { revert = true }: Offer,
  onNew: OnNewVersion,
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`public-reviews:publish:${topic}`]);
    const { rows } = await client.query<{ latest: string | null; existing: number | null }>(
      `SELECT (SELECT hash FROM hub_topic_versions WHERE topic = $1 ORDER BY id DESC LIMIT 1) AS latest,
              (SELECT id FROM hub_topic_versions WHERE topic = $1 AND hash = $2) AS existing`,
      [topic, content.hash],
    );
    const { latest, existing } = rows[0] ?? { latest: null, existing: null };
    // In the same transaction as the write, so another instance's newer version cannot slip between.
    if (latest === content.hash || (existing !== null && !revert)) {
      await client.query("COMMIT");
      return 0;
    }
    const body = Buffer.from(content.body);
    const written = existing
      ? await client.query<{ id: number }>(
          `UPDATE hub_topic_versions SET id = nextval(pg_get_serial_sequence('hub_topic_versions', 'id')),
             body = $2, content_type = $3, created_at = now() WHERE id = $1 RETURNING id`,
          [existing, body, content.contentType],
        )
      : await client.query<{ id: number }>(
          "INSERT INTO hub_topic_versions (topic, hash, content_type, body) VALUES ($1, $2, $3, $4) RETURNING id",
          [topic, content.hash, content.contentType, body],
        );
    const id = written.rows[0]?.id;
    await client.query("UPDATE hub_topic_versions SET body = NULL WHERE topic = $1 AND id <> $2 AND body IS NOT NULL", [
      topic,
      id,
    ]);
    const owed = await client.query<{ id: number }>(
      `SELECT id FROM hub_subscriptions WHERE topic = $1 AND delivered_hash IS DISTINCT FROM $2 AND expires_at > $3
       ORDER BY id`,
      [topic, content.hash, now],
    );
    const ids = owed.rows.map((r) => r.id);
    if (ids.length > 0) await onNew(client, ids, content.hash);
    await client.query("COMMIT");
    return ids.length;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The topic's newest version; `cached` is returned as is when it still is the newest (no body read). */
export async function latestVersion(
  pool: pg.Pool,
  topic: string,
  cached?: StoredVersion,
): Promise<StoredVersion | undefined> {
  // Every delivery job asks this; named, so each connection plans it once.
  const { rows } = await pool.query<{ id: number }>({
    name: "hub-latest-version",
    text: "SELECT id FROM hub_topic_versions WHERE topic = $1 ORDER BY id DESC LIMIT 1",
    values: [topic],
  });
  const id = rows[0]?.id;
  if (id === undefined) return undefined;
  if (cached?.id === id) return cached;
  const full = await pool.query<{ id: number; hash: string; content_type: string; body: Buffer | null }>(
    "SELECT id, hash, content_type, body FROM hub_topic_versions WHERE id = $1",
    [id],
  );
  const row = full.rows[0];
  // Superseded between the two reads: the newer version's own jobs deliver it.
  if (!row?.body) return undefined;
  return { id: row.id, hash: row.hash, contentType: row.content_type, body: row.body };
}
