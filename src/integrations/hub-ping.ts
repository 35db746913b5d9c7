import type { AstroIntegration } from "astro";
import { TOPIC_PATHS } from "../urls.ts";

/** A build never waits longer than this for one answer from the hub. */
export const PING_TIMEOUT_MS = 5_000;

/**
 * How long a build keeps trying a hub that answers "not now" (503 while its database is down,
 * 429, a proxy's 502 or 504) before it gives up: long enough for a database restart.
 */
export const PING_RETRY_MS = 60_000;

/** Statuses that say the hub is there but cannot take the ping yet. */
const TRY_AGAIN = new Set([429, 502, 503, 504]);

export type PingOutcome =
  | { ok: true; status: number; attempts: number }
  | { ok: false; reason: string; attempts: number };

export interface PingOptions {
  timeoutMs?: number;
  /** Keep trying a "not now" answer for this long (ms); default 0, one attempt. */
  retryForMs?: number;
  /** Told of each retry before its wait: why, and how long the wait is (ms). */
  onRetry?: (reason: string, delayMs: number) => void;
  /** Waits `ms`; tests pass a quicker one. */
  sleep?: (ms: number) => Promise<void>;
}

type Attempt = { ok: true; status: number } | { ok: false; reason: string; retryAfterMs?: number };

async function attempt(hubUrl: string, body: URLSearchParams, timeoutMs: number): Promise<Attempt> {
  try {
    const res = await fetch(hubUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = (await res.text()).trim().slice(0, 200);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    const reason = `the hub answered ${res.status}${text ? `: ${text}` : ""}`;
    if (!TRY_AGAIN.has(res.status)) return { ok: false, reason };
    const seconds = Number(res.headers.get("retry-after"));
    return { ok: false, reason, retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000 };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { ok: false, reason: cause ?? (err as Error).message };
  }
}

/**
 * POSTs `hub.mode=publish` with every topic as a repeated `hub.url` (one request for all three).
 * A "not now" answer is tried again within `retryForMs`, waiting the hub's Retry-After or a
 * backoff doubling from 1 s, whichever is longer, never past the bound. Nothing listening or a
 * refusal is final at once. Never throws: an unreachable hub is an outcome to report.
 */
export async function pingHub(hubUrl: string, topics: readonly string[], opts: PingOptions = {}): Promise<PingOutcome> {
  const body = new URLSearchParams({ "hub.mode": "publish" });
  for (const t of topics) body.append("hub.url", t);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let left = opts.retryForMs ?? 0;
  let backoff = 1_000;
  for (let attempts = 1; ; attempts++) {
    const a = await attempt(hubUrl, body, opts.timeoutMs ?? PING_TIMEOUT_MS);
    if (a.ok) return { ...a, attempts };
    const wait = a.retryAfterMs === undefined ? undefined : Math.min(Math.max(a.retryAfterMs, backoff), left);
    if (wait === undefined || wait <= 0) return { ok: false, reason: a.reason, attempts };
    opts.onRetry?.(a.reason, wait);
    await sleep(wait);
    left -= wait;
    backoff *= 2;
  }
}

/**
 * After each build (and after build-outputs has written the header manifest, which the hub reads
 * for Content-Types), tells the WebSub hub that the three topics may have changed. The hub compares
 * content hashes, so a build that changed nothing notifies no subscriber. A hub that answers "not
 * now" is tried again for up to `retryForMs` (default `PING_RETRY_MS`), each retry logged; then,
 * as for an unreachable hub, a warning: the site is built either way. An instance with
 * DATABASE_URL finds the build on its own sync check; without, the next publish catches up.
 */
export function hubPing(opts: {
  hubUrl: string;
  baseUrl: string;
  timeoutMs?: number;
  retryForMs?: number;
  sleep?: PingOptions["sleep"];
}): AstroIntegration {
  const retryForMs = opts.retryForMs ?? PING_RETRY_MS;
  return {
    name: "public-reviews/hub-ping",
    hooks: {
      "astro:build:done": async ({ logger }) => {
        const base = opts.baseUrl.replace(/\/+$/, "");
        const topics = TOPIC_PATHS.map((p) => `${base}${p}`);
        const outcome = await pingHub(opts.hubUrl, topics, {
          timeoutMs: opts.timeoutMs,
          retryForMs,
          sleep: opts.sleep,
          onRetry: (reason, delayMs) =>
            logger.warn(
              `the WebSub hub at ${opts.hubUrl} cannot take the ping yet (${reason}); trying again in ${seconds(delayMs)} (for up to ${seconds(retryForMs)} in all)`,
            ),
        });
        if (outcome.ok) logger.info(`notified the WebSub hub at ${opts.hubUrl} (${outcome.status})`);
        else {
          const tries = outcome.attempts > 1 ? ` after ${outcome.attempts} attempts` : "";
          logger.warn(
            `could not notify the WebSub hub at ${opts.hubUrl}${tries}: ${outcome.reason}; the build is fine`,
          );
        }
      },
    },
  };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
