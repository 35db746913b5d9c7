import { createHmac } from "node:crypto";
import type { Dispatcher } from "undici";
import { requestTarget } from "./callback-url.ts";
import { failureReason, withDeadline } from "./http-client.ts";

/** Content distribution (W3C WebSub §7): one POST of a topic's full content to one subscriber. */

export interface Notification {
  callback: string;
  topic: string;
  hubUrl: string;
  body: Uint8Array;
  /** Exactly the Content-Type the topic is served with. */
  contentType: string;
  secret: string | null;
}

export type DeliveryOutcome =
  | { kind: "delivered"; status: number }
  | { kind: "gone" }
  | { kind: "failed"; reason: string };

/** Responses are drained up to this many bytes and then the connection is dropped. */
export const MAX_DELIVERY_RESPONSE_BYTES = 64 * 1024;

/** `sha256=<hex>` HMAC of the exact body bytes, keyed by the subscriber's `hub.secret`. */
export function signature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * POSTs the content. A 2xx is success, 410 Gone asks to be forgotten, and everything else (any
 * other status including 3xx, a timeout, a TLS or connection error, a refused address) is a
 * failure the caller counts.
 */
export async function deliver(
  dispatcher: Dispatcher,
  n: Notification,
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = {
    "content-type": n.contentType,
    link: `<${n.hubUrl}>; rel="hub", <${n.topic}>; rel="self"`,
  };
  if (n.secret) headers["x-hub-signature"] = signature(n.secret, n.body);
  try {
    return await withDeadline(opts.signal, opts.timeoutMs, async (signal): Promise<DeliveryOutcome> => {
      const target = requestTarget(n.callback);
      const res = await dispatcher.request({ ...target, method: "POST", headers, body: n.body, signal });
      // The body means nothing to the hub; read a little so the connection can be reused.
      await res.body.dump({ limit: MAX_DELIVERY_RESPONSE_BYTES }).catch(() => undefined);
      if (res.statusCode >= 200 && res.statusCode < 300) return { kind: "delivered", status: res.statusCode };
      if (res.statusCode === 410) return { kind: "gone" };
      const redirect = res.statusCode >= 300 && res.statusCode < 400 ? "; redirects are not followed" : "";
      return { kind: "failed", reason: `callback answered ${res.statusCode}${redirect}` };
    });
  } catch (err) {
    return { kind: "failed", reason: failureReason(err) };
  }
}
