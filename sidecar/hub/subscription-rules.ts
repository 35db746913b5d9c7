import { earlierKeys, storedCallback } from "./callback-url.ts";
import { type HubStore, type RequestKey, sentTo, type Verification } from "./store.ts";

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

/**
 * The subscription `v` renews or ends: the one under its callback's key (callback-url.ts), and one
 * an earlier version stored under another key for the same callback (`earlierKeys`). A request
 * recorded then has only the spelling sent, so the key is computed here.
 */
async function existingFor(store: HubStore, v: Verification) {
  const [key, sent] = [storedCallback(v.callback), sentTo(v)];
  const found = await store.subscription(v.topic, key);
  let legacy: Awaited<ReturnType<HubStore["subscription"]>>;
  for (const earlier of earlierKeys(sent)) legacy ??= await store.subscription(v.topic, earlier);
  return { key, sent, found, legacy };
}

/** Why a new subscription cannot be granted; renewing an existing one always can. */
export async function refusalFor(store: HubStore, v: Verification, limits: Limits): Promise<string | undefined> {
  const { found, legacy } = await existingFor(store, v);
  return found || legacy ? undefined : limitRefusal(store, v.callbackHost, limits);
}

/** Why one more subscription would pass the hub's limits, in all or for the callback's host. */
async function limitRefusal(store: HubStore, host: string, limits: Limits): Promise<string | undefined> {
  if ((await store.countSubscriptions()) >= limits.maxSubscriptions) {
    return `the hub has reached its limit of ${limits.maxSubscriptions} subscriptions`;
  }
  if ((await store.countForHost(host)) >= limits.maxPerHost) {
    return `the hub allows at most ${limits.maxPerHost} subscriptions per callback host`;
  }
  return undefined;
}

/**
 * Why a new request cannot wait for verification now (a 503): the hub holds as many pending requests
 * as it allows subscriptions, or the callback's host as many as it may have subscriptions. Without
 * the second, one host with a slow callback could hold every pending slot, and every other
 * subscriber would be refused until its requests timed out. A request pending for the same `key`
 * is not counted: the new one replaces it, so it adds no pending work.
 */
export async function pendingRefusal(
  store: HubStore,
  host: string,
  key: RequestKey,
  limits: Limits,
): Promise<string | undefined> {
  if ((await store.countVerifications(undefined, key)) >= limits.maxSubscriptions) {
    return "too many verifications are pending; try again later";
  }
  if ((await store.countVerifications(host, key)) >= limits.maxPerHost) {
    return `too many verifications are pending for callbacks on ${host}; try again later`;
  }
  return undefined;
}

/**
 * Makes a verified request take effect, unless a newer request for the same (topic, callback)
 * replaced it while it was being verified. A new subscriber is owed future changes only, so its
 * delivered hash starts at the topic's current hash; a renewal keeps its delivery state. The lease
 * runs from `ctx.askedAt`, when the verification request was made, as W3C WebSub §5.3 measures it.
 */
export async function applyVerified(
  store: HubStore,
  v: Verification,
  ctx: { now: number; askedAt: number; currentHash: string | undefined; limits: Limits },
): Promise<Applied> {
  if (!(await store.verification(v.id))) return { kind: "superseded" };
  await store.removeVerification(v.id);
  const { key, sent, found, legacy } = await existingFor(store, v);
  const existing = found ?? legacy;
  if (v.mode === "subscribe" && !existing) {
    const reason = await limitRefusal(store, v.callbackHost, ctx.limits);
    if (reason) return { kind: "denied", reason };
  }
  // A row stored under the spelling sent is this subscription: it ends, or moves to the key.
  if (legacy) await store.remove(legacy.id);
  if (v.mode === "unsubscribe") {
    if (found) await store.remove(found.id);
    return { kind: "unsubscribed", id: existing?.id };
  }
  const moved = found ? undefined : legacy;
  const leaseSeconds = v.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  await store.upsert(
    {
      topic: v.topic,
      callback: key,
      givenCallback: sent,
      callbackHost: v.callbackHost,
      secret: v.secret,
      leaseSeconds,
      expiresAt: ctx.askedAt + leaseSeconds * 1000,
      // One moved keeps what it was owed; a new subscriber is owed only changes to come.
      deliveredHash: moved ? moved.deliveredHash : (ctx.currentHash ?? null),
    },
    ctx.now,
  );
  return { kind: existing ? "renewed" : "subscribed" };
}
