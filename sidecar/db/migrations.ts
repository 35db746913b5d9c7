/**
 * The shared schema, as an append-only list: a migration, once released, is never edited; a change
 * is a new entry. Ids sort in the order they apply. pg-boss installs and migrates its own schema
 * (`pgboss`) itself.
 */
export interface Migration {
  id: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: "001-hub",
    sql: `
CREATE TABLE hub_subscriptions (
  id bigserial PRIMARY KEY,
  topic text NOT NULL,
  callback text NOT NULL,
  callback_host text NOT NULL,
  secret text,
  lease_seconds integer NOT NULL,
  expires_at bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('active', 'retrying')),
  failures integer NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  delivered_hash text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX hub_subscriptions_by_host ON hub_subscriptions (callback_host);
CREATE INDEX hub_subscriptions_by_expiry ON hub_subscriptions (expires_at);
CREATE TABLE hub_verifications (
  id bigserial PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
  topic text NOT NULL,
  callback text NOT NULL,
  callback_host text NOT NULL,
  secret text,
  lease_seconds integer,
  requested_at bigint NOT NULL,
  UNIQUE (topic, callback)
);
-- Each distinct content of a topic, once. The newest row is what deliveries send; older rows keep
-- their hash (so a stale instance cannot re-publish an old build as new) but lose their body.
CREATE TABLE hub_topic_versions (
  id bigserial PRIMARY KEY,
  topic text NOT NULL,
  hash text NOT NULL,
  content_type text NOT NULL,
  body bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (topic, hash)
);
`,
  },
  {
    id: "002-mcp-revocations",
    sql: `
-- DELETEd 2025-era MCP session ids (their SHA-256), kept until the id would have expired anyway.
CREATE TABLE mcp_session_revocations (
  id_hash bytea PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX mcp_session_revocations_by_expiry ON mcp_session_revocations (expires_at);
`,
  },
  {
    id: "003-live-build",
    sql: `
-- The build the service last announced (its version, see sidecar/build/live-build.ts): an instance
-- that missed the notice finds it here and catches up. One row.
CREATE TABLE live_build (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    id: "004-mcp-sessions",
    sql: `
-- 2025-era MCP sessions (the SHA-256 of their id): when each expires unless used again, and whether
-- it was ended (DELETE). Sessions expire after idleness; the revocations become ended sessions.
CREATE TABLE mcp_sessions (
  id_hash bytea PRIMARY KEY,
  expires_at bigint NOT NULL,
  ended boolean NOT NULL DEFAULT false
);
CREATE INDEX mcp_sessions_by_expiry ON mcp_sessions (expires_at);
INSERT INTO mcp_sessions (id_hash, expires_at, ended) SELECT id_hash, expires_at, true FROM mcp_session_revocations;
DROP TABLE mcp_session_revocations;
`,
  },
  {
    id: "005-hub-given-topic",
    sql: `
-- hub.topic as the subscriber wrote it, echoed in the verification and denial GETs; topic is canonical.
ALTER TABLE hub_verifications ADD COLUMN given_topic text;
`,
  },
  {
    id: "006-hub-verification-claims",
    sql: `
-- Until when the instance verifying a request holds it (epoch ms); NULL: nobody. Another instance
-- takes over a request whose holder died once this has passed (sidecar/hub/verification-claims.ts).
ALTER TABLE hub_verifications ADD COLUMN claimed_until bigint;
`,
  },
  {
    id: "007-hub-given-callback",
    sql: `
-- hub.callback as the subscriber sent it (origin normalised), where requests go; callback is the key,
-- its percent-encoded unreserved characters decoded (W3C WebSub §5.1.1). NULL: callback, as before.
ALTER TABLE hub_verifications ADD COLUMN given_callback text;
ALTER TABLE hub_subscriptions ADD COLUMN given_callback text;
`,
  },
];
