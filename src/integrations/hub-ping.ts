import type { AstroIntegration } from "astro";
import { TOPIC_PATHS } from "../urls.ts";

/** A build never waits longer than this for the hub. */
export const PING_TIMEOUT_MS = 5_000;

export type PingOutcome = { ok: true; status: number } | { ok: false; reason: string };

/**
 * POSTs `hub.mode=publish` with every topic as a repeated `hub.url` (one request for all three).
 * Never throws: an unreachable hub is an outcome to report, not an error.
 */
export async function pingHub(
  hubUrl: string,
  topics: readonly string[],
  opts: { timeoutMs?: number } = {},
): Promise<PingOutcome> {
  const body = new URLSearchParams({ "hub.mode": "publish" });
  for (const t of topics) body.append("hub.url", t);
  try {
    const res = await fetch(hubUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs ?? PING_TIMEOUT_MS),
    });
    const text = (await res.text()).trim().slice(0, 200);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, reason: `the hub answered ${res.status}${text ? `: ${text}` : ""}` };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { ok: false, reason: cause ?? (err as Error).message };
  }
}

/**
 * After each build (and after build-outputs has written the header manifest, which the hub reads
 * for Content-Types), tells the WebSub hub that the three topics may have changed. The hub compares
 * content hashes, so a build that changed nothing notifies no subscriber. An unreachable hub is a
 * warning: the site is built either way, and the next publish catches subscribers up.
 */
export function hubPing(opts: { hubUrl: string; baseUrl: string; timeoutMs?: number }): AstroIntegration {
  return {
    name: "public-reviews/hub-ping",
    hooks: {
      "astro:build:done": async ({ logger }) => {
        const base = opts.baseUrl.replace(/\/+$/, "");
        const topics = TOPIC_PATHS.map((p) => `${base}${p}`);
        const outcome = await pingHub(opts.hubUrl, topics, { timeoutMs: opts.timeoutMs });
        if (outcome.ok) logger.info(`notified the WebSub hub at ${opts.hubUrl} (${outcome.status})`);
        else logger.warn(`could not notify the WebSub hub at ${opts.hubUrl}: ${outcome.reason}; the build is fine`);
      },
    },
  };
}
