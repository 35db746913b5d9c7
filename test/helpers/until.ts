/** Polls `done` every 50 ms until it holds, failing after `ms`: for state that settles after a response or an event. */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`the condition did not hold within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
