/**
 * A list of JSON values that several threads take from, a run of items at a time, until none are
 * left: the threads share one copy of the list (its UTF-8 JSON in a `SharedArrayBuffer`) and one
 * counter, so a thread that started late or runs slower simply takes fewer runs, where a list cut
 * into equal shares in advance leaves the fastest thread idle while the slowest finishes its share.
 */

/** What crosses to a worker thread (`workerData`): shared memory only, never a copy of the items. */
export interface SharedItems {
  /** Every item's JSON, one after another. */
  bytes: SharedArrayBuffer;
  /** Item i is `bytes[offsets[i], offsets[i + 1])`. */
  offsets: SharedArrayBuffer;
  /** One Int32: the index of the next item nobody has taken. */
  next: SharedArrayBuffer;
}

/** Items taken per turn: enough to keep the counter out of the way, few enough to share the end. */
export const RUN = 16;

export function shareItems(items: readonly unknown[]): SharedItems {
  const json = items.map((item) => Buffer.from(JSON.stringify(item)));
  const offsets = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * (items.length + 1));
  const at = new Float64Array(offsets);
  let total = 0;
  json.forEach((b, i) => {
    at[i] = total;
    total += b.length;
  });
  at[items.length] = total;
  const bytes = new SharedArrayBuffer(total);
  const view = new Uint8Array(bytes);
  json.forEach((b, i) => {
    view.set(b, at[i] as number);
  });
  return { bytes, offsets, next: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };
}

/** How many items the list holds. */
export const itemCount = (shared: SharedItems) => shared.offsets.byteLength / Float64Array.BYTES_PER_ELEMENT - 1;

/**
 * Takes the next run of indexes for this thread: `[from, to)`, empty (`from >= to`) once every
 * item is taken. Each index is handed to exactly one thread.
 */
export function takeRun(shared: SharedItems): [from: number, to: number] {
  const count = itemCount(shared);
  const from = Math.min(Atomics.add(new Int32Array(shared.next), 0, RUN), count);
  return [from, Math.min(from + RUN, count)];
}

/** Every index this thread takes, run after run, until none are left. */
export function* taken(shared: SharedItems): Generator<number> {
  for (let [i, end] = takeRun(shared); i < end; [i, end] = takeRun(shared)) for (; i < end; i++) yield i;
}

/** Item `i`, parsed from the shared JSON (a worker's copy of just that item). */
export function itemAt<T>(shared: SharedItems, i: number): T {
  const at = new Float64Array(shared.offsets);
  const from = at[i] as number;
  return JSON.parse(Buffer.from(shared.bytes, from, (at[i + 1] as number) - from).toString("utf8")) as T;
}
