import type { HubStore, Verification } from "./store.ts";

/**
 * The rules that decide whether and how a verified request changes the subscriptions. Called
 * inside a store transaction, so the limit check and the write cannot interleave with another
 * verification finishing at the same moment.
 */

/** Lease granted when the subscriber asks for none (before clamping to the configured bounds). */
export const DEFAULT_LEASE_SECONDS = 864_000;

export interface Limits {
  maxSubscriptions: number;
  maxPerHost: number;
}

export type Applied =
  | { kind: "superseded" }
  | { kind: "subscribed" | "renewed" }
  | { kind: "unsubscribed"; id: number | undefined }
  | { kind: "denied"; reason: string };

/** `hub.lease_seconds` (or the default) clamped to `[min, max]`. */
export function grantLease(asked: number | undefined, min: number, max: number): number {
  return Math.min(max, Math.max(min, asked ?? DEFAULT_LEASE_SECONDS));
}

/** Why a new subscription cannot be granted; renewing an existing one always can. */
export async function refusalFor(store: HubStore, v: Verification, limits: Limits): Promise<string | undefined> {
  if (await store.subscription(v.topic, v.callback)) return undefined;
  if ((await store.countSubscriptions()) >= limits.maxSubscriptions) {
    return `the hub has reached its limit of ${limits.maxSubscriptions} subscriptions`;
  }
  if ((await store.countForHost(v.callbackHost)) >= limits.maxPerHost) {
    return `the hub allows at most ${limits.maxPerHost} subscriptions per callback host`;
  }
  return undefined;
}

/**
 * Why a new request cannot wait for verification now (a 503): the hub holds as many pending requests
 * as it allows subscriptions, or the callback's host as many as it may have subscriptions. Without
 * the second, one host with a slow callback could hold every pending slot, and every other
 * subscriber would be refused until its requests timed out.
 */
export async function pendingRefusal(store: HubStore, host: string, limits: Limits): Promise<string | undefined> {
  if ((await store.countVerifications()) >= limits.maxSubscriptions) {
    return "too many verifications are pending; try again later";
  }
  if ((await store.countVerifications(host)) >= limits.maxPerHost) {
    return `too many verifications are pending for callbacks on ${host}; try again later`;
  }
  return undefined;
}

/**
 * Makes a verified request take effect, unless a newer request for the same (topic, callback)
 * replaced it while it was being verified. A new subscriber is owed future changes only, so its
 * delivered hash starts at the topic's current hash; a renewal keeps its delivery state.
 */
export async function applyVerified(
  store: HubStore,
  v: Verification,
  ctx: { now: number; currentHash: string | undefined; limits: Limits },
): Promise<Applied> {
  if (!(await store.verification(v.id))) return { kind: "superseded" };
  await store.removeVerification(v.id);
  const existing = await store.subscription(v.topic, v.callback);
  if (v.mode === "unsubscribe") {
    if (existing) await store.remove(existing.id);
    return { kind: "unsubscribed", id: existing?.id };
  }
  const reason = await refusalFor(store, v, ctx.limits);
  if (reason) return { kind: "denied", reason };
  const leaseSeconds = v.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  await store.upsert(
    {
      topic: v.topic,
      callback: v.callback,
      callbackHost: v.callbackHost,
      secret: v.secret,
      leaseSeconds,
      expiresAt: ctx.now + leaseSeconds * 1000,
      deliveredHash: ctx.currentHash ?? null,
    },
    ctx.now,
  );
  return { kind: existing ? "renewed" : "subscribed" };
}
