import { z } from "zod";
import { bool, dir, flag, host, int, logLevel, oneOf, origins } from "./env-values.ts";
import { LogDirEnv, LogSigningKeyEnv } from "./log/key-env.ts";

/**
 * The one place that reads `process.env`. Every variable is validated once, at start-up, and a bad
 * value stops the process with a message naming the variable and echoing what it got — a typo in a
 * deployment should fail loudly, not serve the wrong thing.
 */

/** Parses BASE_URL; `undefined` when unset, so the default can depend on PORT (see `loadConfig`). */
/** `url` as a message shows it, its password (if any) masked: messages go to logs and terminals. */
function masked(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password) shown.password = "***";
  return shown.href;
}

const baseUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return undefined;
    const raw = v;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: `BASE_URL must be an absolute http(s) URL, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    // `url.search` and `url.hash` are "" for a bare "?" or "#", so look at the text as well.
    const extra = url.search || url.hash || /[?#]/.test(raw) || url.username || url.password;
    if ((url.protocol !== "http:" && url.protocol !== "https:") || extra) {
      ctx.addIssue({
        code: "custom",
        message: `BASE_URL must be an http(s) URL without query, fragment or credentials, got ${JSON.stringify(url.password ? masked(url) : raw)}`,
      });
      return z.NEVER;
    }
    // Port 0 means "any free port" to listen on; as a public address, nothing can be reached there.
    if (url.port === "0") {
      ctx.addIssue({
        code: "custom",
        message: `BASE_URL must not have port 0, which no client can connect to (with PORT=0, leave BASE_URL unset: npm start uses the port it listens on), got ${JSON.stringify(raw)}`,
      });
      return z.NEVER;
    }
    // The review log's origin, host and path (docs/log.md), names its signing key, which holds no "+" (c2sp.org/signed-note).
    if (`${url.host}${url.pathname}`.includes("+")) {
      ctx.addIssue({
        code: "custom",
        message: `BASE_URL must have no + in its host or path: they name the review log and its signing key, and a key name cannot hold one, got ${JSON.stringify(raw)}`,
      });
      return z.NEVER;
    }
    return url.href.replace(/\/+$/, "");
  });

/**
 * Where the build hook pings the hub: an http(s) URL, or `off`. One transform, not a union with the
 * literal, so a bad value gets a message naming the variable rather than zod's "Invalid input".
 */
const hubPingUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "" || v === "off") return v === "off" ? ("off" as const) : undefined;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {}
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      ctx.addIssue({
        code: "custom",
        message: `HUB_URL must be an absolute http(s) URL or off, got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    // fetch refuses a URL with credentials, so every build's ping would fail, echoing the password.
    if (url.username || url.password) {
      ctx.addIssue({
        code: "custom",
        message: `HUB_URL must be an http(s) URL without a user name or password (the ping cannot send them), got ${JSON.stringify(masked(url))}`,
      });
      return z.NEVER;
    }
    return url.href;
  });

/**
 * Key for the MCP session ids (HMAC-SHA256). Instances behind one load balancer share it so an id
 * from one is valid on the others; unset (undefined here), the sidecar keeps one in DATA_DIR
 * (sidecar/mcp/session-secret.ts), so a restart does not end the sessions of one instance.
 */
const sessionSecret = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return undefined;
    if (v.length < 32) {
      ctx.addIssue({
        code: "custom",
        message: `MCP_SESSION_SECRET must be at least 32 characters (e.g. openssl rand -base64 32), got ${v.length} characters`,
      });
      return z.NEVER;
    }
    return v;
  });

const databaseUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return undefined;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {}
    if (!url || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) {
      // The value may carry a password: name the problem, echo only the scheme.
      const got = url
        ? url.protocol
        : "a value that does not parse as a URL (a port that is no number, a stray bracket…)";
      ctx.addIssue({ code: "custom", message: `DATABASE_URL must be a postgres:// URL, got ${got}` });
      return z.NEVER;
    }
    return v;
  });

export const EnvSchema = z.object({
  PORT: int("PORT", 0, 65535, 4321),
  HOST: host,
  BASE_URL: baseUrl,
  CONTENT_DIR: dir("CONTENT_DIR", "content"),
  DIST_DIR: dir("DIST_DIR", "dist"),
  /** Names Astro's cache folder (see src/build/astro-build.ts); default DIST_DIR. Set by the build runner. */
  ASTRO_CACHE_KEY: z.string().optional(),
  DATA_DIR: dir("DATA_DIR", "data"),
  /** The review log (docs/log.md): its state folder and its signing key. */
  LOG_DIR: LogDirEnv,
  LOG_SIGNING_KEY: LogSigningKeyEnv,
  /** Start a new review log for a public origin whose published log cannot be fetched (docs/log.md#state). */
  LOG_NEW: bool("LOG_NEW"),
  LOG_LEVEL: logLevel,
  /**
   * `pretty` (plain lines) or `json` (pino); unset: pretty for `npm start` in a terminal, json
   * otherwise (`npm run sidecar`, output to a file or a pipe).
   */
  LOG_FORMAT: oneOf("LOG_FORMAT", ["pretty", "json"] as const, undefined),
  /** One log line per request (at info); unset: on for `npm run sidecar`, off for `npm start` (LOG_LEVEL=debug shows them). */
  ACCESS_LOG: flag("ACCESS_LOG", undefined),
  /** `skip` leaves review files whose text is still empty out of the build (npm start); `error` fails. */
  UNFINISHED_REVIEWS: oneOf("UNFINISHED_REVIEWS", ["error", "skip"] as const, "error"),
  /**
   * npm start: builds one long-lived build process runs (Astro stays loaded between them) before
   * a fresh one replaces it; 0 runs each build as a fresh `astro build` (src/build/astro-worker.ts).
   */
  BUILD_WORKER_BUILDS: int("BUILD_WORKER_BUILDS", 0, 1_000, 20),
  /** npm start: resident memory (MiB) after a build above which the build process is replaced. */
  BUILD_WORKER_MAX_RSS_MB: int("BUILD_WORKER_MAX_RSS_MB", 128, 65_536, 1_536),
  /** Where the build hook pings the hub; `off` disables the ping (npm start's first build, before its hub listens). */
  HUB_URL: hubPingUrl,
  HUB_ALLOW_PRIVATE_CALLBACKS: bool("HUB_ALLOW_PRIVATE_CALLBACKS"),
  HUB_RETRY_BASE_MS: int("HUB_RETRY_BASE_MS", 1, 3_600_000, 60_000),
  HUB_DELIVERY_TIMEOUT_MS: int("HUB_DELIVERY_TIMEOUT_MS", 100, 120_000, 10_000),
  HUB_MAX_SUBSCRIPTIONS: int("HUB_MAX_SUBSCRIPTIONS", 1, 10_000_000, 10_000),
  HUB_MAX_PER_HOST: int("HUB_MAX_PER_HOST", 1, 10_000_000, 100),
  HUB_LEASE_MIN_SECONDS: int("HUB_LEASE_MIN_SECONDS", 60, 31_536_000, 3_600),
  HUB_LEASE_MAX_SECONDS: int("HUB_LEASE_MAX_SECONDS", 60, 31_536_000, 2_592_000),
  HUB_CONCURRENCY: int("HUB_CONCURRENCY", 1, 1_000, 16),
  /** Idle timeout of an MCP 2025-era session: it expires this long after its last use (up to 7 days). */
  MCP_SESSION_TTL_MS: int("MCP_SESSION_TTL_MS", 1_000, 604_800_000, 86_400_000),
  /** Bound on per-session records kept: sessions' last use and end, and sessions with subscriptions. */
  MCP_MAX_SESSIONS: int("MCP_MAX_SESSIONS", 1, 1_000_000, 10_000),
  /** Open MCP change-notice streams (2025 GET streams; 2026 subscriptions/listen streams), each. */
  MCP_MAX_STREAMS: int("MCP_MAX_STREAMS", 1, 100_000, 100),
  /** Of those, the most one client (address) may hold at once, both eras together. */
  MCP_MAX_STREAMS_PER_CLIENT: int("MCP_MAX_STREAMS_PER_CLIENT", 1, 100_000, 10),
  /** SSE keep-alive comment interval on MCP streams; 0 disables. */
  MCP_KEEPALIVE_MS: int("MCP_KEEPALIVE_MS", 0, 300_000, 15_000),
  MCP_SESSION_SECRET: sessionSecret,
  MCP_ALLOWED_ORIGINS: origins,
  TRUST_PROXY: int("TRUST_PROXY", 0, 10, 0),
  RATE_LIMIT_PER_MINUTE: int("RATE_LIMIT_PER_MINUTE", 1, 10_000_000, 600),
  HUB_RATE_LIMIT_PER_MINUTE: int("HUB_RATE_LIMIT_PER_MINUTE", 1, 10_000_000, 30),
  /** Bound of each build's result store (search/since answers and parsed queries), MiB; 0 turns it off. */
  RESPONSE_CACHE_MB: int("RESPONSE_CACHE_MB", 0, 65_536, 64),
  /** Shared state in PostgreSQL for several instances; unset: SQLite in DATA_DIR, one instance. */
  DATABASE_URL: databaseUrl,
  /** How often the job queue re-runs deliveries whose instance died mid-run (with DATABASE_URL). */
  HUB_QUEUE_SUPERVISE_SECONDS: int("HUB_QUEUE_SUPERVISE_SECONDS", 1, 3_600, 10),
  /**
   * How often an instance compares the build it serves with the one last announced (with
   * DATABASE_URL) and retries a distribution that failed (sidecar/build/build-sync.ts).
   */
  BUILD_SYNC_SECONDS: int("BUILD_SYNC_SECONDS", 1, 3_600, 15),
});

export type Config = Omit<z.infer<typeof EnvSchema>, "BASE_URL"> & {
  /** The public origin, without a trailing slash: `BASE_URL`, or `http://localhost:<PORT>` when unset. */
  BASE_URL: string;
  /** False when BASE_URL was derived from PORT: fine for `npm start`, refused by a production build. */
  baseUrlExplicit: boolean;
  /** `{BASE_URL}/api/websub/hub`: the hub every topic advertises. */
  hubUrl: string;
};

/** Thrown when the environment is invalid; `message` names every bad variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses an environment (default `process.env`) into a typed config. Pure apart from that default:
 * tests pass their own object.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const cfg = parsed.data;
  if (cfg.HUB_LEASE_MIN_SECONDS > cfg.HUB_LEASE_MAX_SECONDS) {
    throw new ConfigError(
      `Invalid configuration:\n  HUB_LEASE_MIN_SECONDS (${cfg.HUB_LEASE_MIN_SECONDS}) must not exceed HUB_LEASE_MAX_SECONDS (${cfg.HUB_LEASE_MAX_SECONDS})`,
    );
  }
  const explicit = cfg.BASE_URL !== undefined;
  const base = cfg.BASE_URL ?? localBaseUrl(cfg.PORT);
  return { ...cfg, BASE_URL: base, baseUrlExplicit: explicit, hubUrl: `${base}/api/websub/hub` };
}

/**
 * When BASE_URL is unset, the public origin is the address a browser on this machine reaches the
 * listening port at. Deriving it from the port (rather than a fixed default) keeps
 * `PORT=4601 npm start` from advertising permalinks, feeds and hub topics where nothing listens.
 */
function localBaseUrl(port: number): string {
  return `http://localhost:${port}`;
}

/**
 * The config once the real port is known (`PORT=0` picks one at listen time): a derived BASE_URL
 * follows the port, an explicit one is kept.
 */
export function withListeningPort(config: Config, port: number): Config {
  if (config.baseUrlExplicit) return { ...config, PORT: port };
  const base = localBaseUrl(port);
  return { ...config, PORT: port, BASE_URL: base, hubUrl: `${base}/api/websub/hub` };
}
