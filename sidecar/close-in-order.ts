/** How long a shutdown waits for the parts that talk to PostgreSQL. */
export const CLOSE_WITHIN_MS = 5_000;

/**
 * Closes `parts` one after the other, giving up after `ms` in all. pg-boss's stop queries the
 * database even when it abandons its jobs, and a database that stopped answering without refusing
 * (a partition) held that, and the process's exit on SIGTERM, forever. What is left running is
 * abandoned, as after a crash: the exit ends it, and another instance runs its jobs once they expire.
 */
export async function closeInOrder(
  parts: readonly ({ close(): Promise<unknown> } | undefined)[],
  ms = CLOSE_WITHIN_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  const closed = (async () => {
    for (const part of parts) await part?.close();
  })();
  await Promise.race([closed, late]);
  clearTimeout(timer);
}
