import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { readDistFile } from "../../src/io/dist-files.ts";
import { parseCheckpoint } from "../../src/log/checkpoint.ts";
import { parseNote } from "../../src/log/note.ts";
import type { Snapshot } from "../build/snapshot.ts";
import type { ArgumentsAsSent } from "./arguments-as-sent.ts";
import { cachedJsonSchema } from "./cached-schema.ts";
import { errorResult, jsonResult, NoArgs, NoArgsInput, READ_ONLY } from "./tools.ts";

/**
 * The review log's current checkpoint as an MCP tool: what an assistant needs to tell a user how
 * to check that no review was silently removed or rewritten (docs/log.md). It reads the build's
 * own `/log/checkpoint` and `/log/key`, so it says exactly what the HTTP files say.
 */

export const LogCheckpointSchema = cachedJsonSchema(
  z.object({
    origin: z.string().describe("The log's name: its URL prefix without the scheme."),
    tree_size: z.number().int().min(0).describe("Entries in the log at this checkpoint."),
    root_hash: z.string().describe("Base64 RFC 6962 Merkle tree hash of those entries."),
    checkpoint: z.string().describe("The signed checkpoint (c2sp.org/tlog-checkpoint), as /log/checkpoint serves it."),
    verifier_key: z
      .string()
      .describe("The log's verifier key as this server states it; a verifier should pin a copy it trusts."),
    log_url: z.string().describe("The log's URL prefix: checkpoint, key and tiles are below it."),
    verify_command: z.string().describe("The command that verifies the log with this project's monitor."),
  }),
);

export function registerLogTool(
  server: McpServer,
  deps: { snapshot: Snapshot; baseUrl: string; asSent: ArgumentsAsSent },
): void {
  server.registerTool(
    "get_log_checkpoint",
    {
      title: "Review log checkpoint",
      description:
        "The current signed checkpoint of the append-only review log, where every published, amended and " +
        "withdrawn review is an entry (each review's log_index names its latest one). Use it to show how to " +
        "verify that no review was silently removed or rewritten; the key should be compared with a pinned copy.",
      inputSchema: NoArgsInput,
      outputSchema: LogCheckpointSchema,
      annotations: READ_ONLY,
    },
    deps.asSent.guard(NoArgs, async () => {
      const { dir } = deps.snapshot;
      const [note, key] = await Promise.all([readDistFile(dir, "/log/checkpoint"), readDistFile(dir, "/log/key")]);
      if (!note || !key) {
        return errorResult({ error: "unavailable", message: "This build has no review log; run npm run build." });
      }
      const text = note.toString("utf8");
      const cp = parseCheckpoint(parseNote(text).text);
      const logUrl = `${deps.baseUrl.replace(/\/+$/, "")}/log`;
      const vkey = key.toString("utf8").trim();
      return jsonResult(LogCheckpointSchema, {
        origin: cp.origin,
        tree_size: cp.size,
        root_hash: Buffer.from(cp.root).toString("base64"),
        checkpoint: text,
        verifier_key: vkey,
        log_url: logUrl,
        verify_command: `npm run log:verify -- --url ${logUrl} --key '${vkey}' --state review-log.json`,
      });
    }),
  );
}
