import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withDeadline } from "../../../sidecar/hub/http-client.ts";

/** Resolves when `signal` aborts, with its reason. */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));

describe("withDeadline", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("aborts after timeoutMs with the reason AbortSignal.timeout gives", async () => {
    const parent = new AbortController();
    const run = withDeadline(parent.signal, 500, (signal) => aborted(signal));
    await vi.advanceTimersByTimeAsync(499);
    const reason = (await Promise.race([run, Promise.resolve("pending")])) as DOMException | string;
    expect(reason).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    const got = (await run) as DOMException;
    expect(got).toBeInstanceOf(DOMException);
    expect(got.name).toBe("TimeoutError");
    expect(got.message).toBe("The operation was aborted due to timeout");
  });

  it("aborts with the parent's reason, also when the parent was aborted before", async () => {
    const parent = new AbortController();
    const run = withDeadline(parent.signal, 10_000, (signal) => aborted(signal));
    parent.abort(new Error("shutting down"));
    expect(((await run) as Error).message).toBe("shutting down");
    const again = await withDeadline(parent.signal, 10_000, async (signal) => signal.reason);
    expect((again as Error).message).toBe("shutting down");
  });

  it("releases the timer and the parent's listener once the work settles, whether it resolves or throws", async () => {
    const parent = new AbortController();
    let seen: AbortSignal | undefined;
    await withDeadline(parent.signal, 500, async (signal) => {
      seen = signal;
    });
    await expect(
      withDeadline(parent.signal, 500, async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen?.aborted).toBe(false);
  });
});
