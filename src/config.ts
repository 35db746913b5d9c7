import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";

/**
 * The one place that reads `process.env`. Every variable is validated once, at start-up, and a bad
 * value stops the process with a message naming the variable and echoing what it got — a typo in a
 * deployment should fail loudly, not serve the wrong thing.
 */

const bool = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return false;
      if (v === "true" || v === "1") return true;
      if (v === "false" || v === "0") return false;
      ctx.addIssue({ code: "custom", message: `${name} must be true or false, got ${JSON.stringify(v)}` });
      return z.NEVER;
    });

const int = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`,
        });
        return z.NEVER;
      }
      return n;
    });

const baseUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const raw = v === undefined || v === "" ? "http://localhost:4321" : v;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: `BASE_URL must be an absolute http(s) URL, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username) {
      ctx.addIssue({
        code: "custom",
        message: `BASE_URL must be an http(s) URL without query, fragment or credentials, got ${JSON.stringify(raw)}`,
      });
      return z.NEVER;
    }
    return url.href.replace(/\/+$/, "");
  });

const dir = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => path.resolve(v === undefined || v === "" ? fallback : v));

const host = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const h = v === undefined || v === "" ? "127.0.0.1" : v;
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(h)) {
      ctx.addIssue({ code: "custom", message: `HOST must be a host name or IP address, got ${JSON.stringify(h)}` });
      return z.NEVER;
    }
    return h;
  });

const logLevel = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const level = v === undefined || v === "" ? "info" : v;
    const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
    if (!(levels as readonly string[]).includes(level)) {
      ctx.addIssue({
        code: "custom",
        message: `LOG_LEVEL must be one of ${levels.join(", ")}, got ${JSON.stringify(level)}`,
      });
      return z.NEVER;
    }
    return level as (typeof levels)[number];
  });

const origins = z
  .string()
  .optional()
  .transform((v) =>
    v === undefined || v.trim() === "" || v.trim() === "*"
      ? ("*" as const)
      : v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
  );

const optionalUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      try {
        return new URL(v).href;
      } catch {
        ctx.addIssue({ code: "custom", message: `${name} must be an absolute URL, got ${JSON.stringify(v)}` });
        return z.NEVER;
      }
    });

/**
 * Key for the MCP session ids (HMAC-SHA256). Instances behind one load balancer share it so an id
 * from one is valid on the others; unset, each process draws its own, which is right for one
 * instance (its sessions end with it, and clients re-initialize).
 */
const sessionSecret = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return randomBytes(32).toString("base64url");
    if (v.length < 32) {
      ctx.addIssue({
        code: "custom",
        message: `MCP_SESSION_SECRET must be at least 32 characters (e.g. openssl rand -base64 32), got ${v.length} characters`,
      });
      return z.NEVER;
    }
    return v;
  });

export const EnvSchema = z.object({
  PORT: int("PORT", 0, 65535, 4321),
  HOST: host,
  BASE_URL: baseUrl,
  CONTENT_DIR: dir("content"),
  DIST_DIR: dir("dist"),
  DATA_DIR: dir("data"),
  LOG_LEVEL: logLevel,
  /** Where the build hook pings the hub; `off` disables the ping (npm start's first build, before its hub listens). */
  HUB_URL: z.union([z.literal("off"), optionalUrl("HUB_URL")]),
  HUB_ALLOW_PRIVATE_CALLBACKS: bool("HUB_ALLOW_PRIVATE_CALLBACKS"),
  HUB_RETRY_BASE_MS: int("HUB_RETRY_BASE_MS", 1, 3_600_000, 60_000),
  HUB_DELIVERY_TIMEOUT_MS: int("HUB_DELIVERY_TIMEOUT_MS", 100, 120_000, 10_000),
  HUB_MAX_SUBSCRIPTIONS: int("HUB_MAX_SUBSCRIPTIONS", 1, 10_000_000, 10_000),
  HUB_MAX_PER_HOST: int("HUB_MAX_PER_HOST", 1, 10_000_000, 100),
  HUB_LEASE_MIN_SECONDS: int("HUB_LEASE_MIN_SECONDS", 60, 31_536_000, 3_600),
  HUB_LEASE_MAX_SECONDS: int("HUB_LEASE_MAX_SECONDS", 60, 31_536_000, 2_592_000),
  HUB_CONCURRENCY: int("HUB_CONCURRENCY", 1, 1_000, 16),
  /** Lifetime of an MCP 2025-era session id from its initialize (it is signed with its expiry). */
  MCP_SESSION_TTL_MS: int("MCP_SESSION_TTL_MS", 1_000, 86_400_000, 3_600_000),
  /** Bound on per-session records kept in memory: revoked ids and sessions with subscriptions. */
  MCP_MAX_SESSIONS: int("MCP_MAX_SESSIONS", 1, 1_000_000, 10_000),
  /** Open MCP change-notice streams (2025 GET streams; 2026 subscriptions/listen streams), each. */
  MCP_MAX_STREAMS: int("MCP_MAX_STREAMS", 1, 100_000, 100),
  /** SSE keep-alive comment interval on MCP streams; 0 disables. */
  MCP_KEEPALIVE_MS: int("MCP_KEEPALIVE_MS", 0, 300_000, 15_000),
  MCP_SESSION_SECRET: sessionSecret,
  MCP_ALLOWED_ORIGINS: origins,
  TRUST_PROXY: int("TRUST_PROXY", 0, 10, 0),
  RATE_LIMIT_PER_MINUTE: int("RATE_LIMIT_PER_MINUTE", 1, 10_000_000, 600),
  HUB_RATE_LIMIT_PER_MINUTE: int("HUB_RATE_LIMIT_PER_MINUTE", 1, 10_000_000, 30),
});

export type Config = z.infer<typeof EnvSchema> & {
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
  return { ...cfg, hubUrl: `${cfg.BASE_URL}/api/websub/hub` };
}
