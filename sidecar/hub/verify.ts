import { randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import { requestTarget, withParams } from "./callback-url.ts";
import { failureReason, withDeadline } from "./http-client.ts";

/**
 * Verification of intent (W3C WebSub §5.3) and denial notices (§5.2). Both are GETs to the
 * callback with `hub.*` parameters appended to whatever query the subscriber put in its callback.
 */

/** A 32-byte challenge, far above the 128 bits required, in URL-safe characters. */
export const CHALLENGE_BYTES = 32;

/**
 * The body of a verification or denial answer is read up to this size and no further: past it the
 * connection is dropped (undici's `dump` would read 128 KiB by default).
 */
export const MAX_VERIFY_BODY_BYTES = 1024;

export interface IntentCheck {
  callback: string;
  mode: "subscribe" | "unsubscribe";
  topic: string;
  /** Sent on subscribe only: the lease the hub will grant, after clamping. */
  leaseSeconds?: number;
}

export type VerifyOutcome = { ok: true } | { ok: false; reason: string };

async function readAtMost(body: AsyncIterable<Buffer>, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    // Leaving the loop destroys the stream, so an endless body costs at most `max` bytes.
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function statusReason(status: number): string {
  if (status >= 300 && status < 400) return `callback answered ${status}; redirects are not followed`;
  return `callback answered ${status}`;
}

/**
 * Sends the challenge and checks the answer. Only a 2xx whose body is exactly the challenge
 * confirms; a 3xx/4xx/5xx, a timeout, a TLS or connection error, or any other body rejects.
 */
export async function verifyIntent(
  dispatcher: Dispatcher,
  check: IntentCheck,
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<VerifyOutcome> {
  const challenge = randomBytes(CHALLENGE_BYTES).toString("base64url");
  const params: Record<string, string> = {
    "hub.mode": check.mode,
    "hub.topic": check.topic,
    "hub.challenge": challenge,
  };
  if (check.leaseSeconds !== undefined) params["hub.lease_seconds"] = String(check.leaseSeconds);
  try {
    return await withDeadline(opts.signal, opts.timeoutMs, async (signal): Promise<VerifyOutcome> => {
      const target = requestTarget(withParams(check.callback, params));
      const res = await dispatcher.request({ ...target, method: "GET", signal });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump({ limit: MAX_VERIFY_BODY_BYTES });
        return { ok: false, reason: statusReason(res.statusCode) };
      }
      const body = await readAtMost(res.body, MAX_VERIFY_BODY_BYTES);
      if (body === undefined) return { ok: false, reason: `body is longer than ${MAX_VERIFY_BODY_BYTES} bytes` };
      if (body.toString("utf8") !== challenge) return { ok: false, reason: "body does not equal the challenge" };
      return { ok: true };
    });
  } catch (err) {
    return { ok: false, reason: failureReason(err) };
  }
}

/**
 * Tells a subscriber that a request the hub had accepted is refused. Best effort: the outcome is
 * returned for the log, never retried.
 */
export async function sendDenied(
  dispatcher: Dispatcher,
  notice: { callback: string; topic: string; reason: string },
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<string> {
  const url = withParams(notice.callback, {
    "hub.mode": "denied",
    "hub.topic": notice.topic,
    "hub.reason": notice.reason,
  });
  try {
    return await withDeadline(opts.signal, opts.timeoutMs, async (signal) => {
      const res = await dispatcher.request({ ...requestTarget(url), method: "GET", signal });
      await res.body.dump({ limit: MAX_VERIFY_BODY_BYTES });
      return `callback answered ${res.statusCode}`;
    });
  } catch (err) {
    return failureReason(err);
  }
}
