import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import { queueErrorLog } from "../../../sidecar/db/queue-errors.ts";

/** A logger that keeps what `warn` was given. */
function recorder(): { log: Logger; lines: [Record<string, unknown>, string][] } {
  const lines: [Record<string, unknown>, string][] = [];
  const log = { warn: (obj: Record<string, unknown>, msg: string) => lines.push([obj, msg]) } as unknown as Logger;
  return { log, lines };
}

describe("the queues' outage log (queueErrorLog)", () => {
  it("says each reason once per period, however many workers report it, without pg-boss's worker suffix", () => {
    const { log, lines } = recorder();
    const say = queueErrorLog(log, "job queue error");
    for (let w = 0; w < 16; w++) say(new Error(`Connection terminated (Queue: hub-deliveries, Worker: ${w})`));
    expect(lines).toEqual([[{ err: "Connection terminated" }, "job queue error"]]);
  });

  it("names an error that has no message by its code (Node's AggregateError for ECONNREFUSED)", () => {
    const { log, lines } = recorder();
    const refused = Object.assign(new AggregateError([], ""), { code: "ECONNREFUSED" });
    queueErrorLog(log, "job queue error")(refused);
    expect(lines).toEqual([[{ err: "ECONNREFUSED" }, "job queue error"]]);
  });
});
