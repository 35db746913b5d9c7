import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { distHolder } from "../../../src/build/dist-holder.ts";
import { processStart } from "../../../src/io/process-alive.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const children: ChildProcess[] = [];
const temp = tempFolders();
afterAll(async () => {
  for (const c of children) c.kill();
});

/** A process that idles: a stand-in for an npm start. */
function idle(): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  children.push(child);
  return child.pid as number;
}

/** DIST_DIR as npm start leaves it: a link into its builds, `record` beside it. */
async function servedDist(record: string): Promise<string> {
  const outside = await temp.make("pr-holder-");
  const dist = path.join(outside, "dist");
  await mkdir(path.join(`${dist}.builds`, "served"), { recursive: true });
  await symlink(path.join("dist.builds", "served"), dist);
  await writeFile(`${dist}.served-by`, record);
  return dist;
}

describe("the process serving DIST_DIR (distHolder)", () => {
  it("is the recorded process while it runs, with or without its start in the record", async () => {
    const pid = idle();
    expect(distHolder(await servedDist(`${pid}\n`))).toBe(pid);
    expect(distHolder(await servedDist(`${pid} ${processStart(pid) ?? ""}\n`))).toBe(pid);
  });

  it("is, for npm start, also one still making its first build, before DIST_DIR is its link", async () => {
    const pid = idle();
    const dist = await servedDist(`${pid}\n`);
    await rm(dist);
    expect(distHolder(dist)).toBeUndefined();
    expect(distHolder(dist, { linked: false })).toBe(pid);
  });

  it.runIf(process.platform === "linux")(
    "is nobody once the recorded PID is another process's (after a crash or a reboot), whatever its title",
    async () => {
      const pid = idle();
      const start = Number(processStart(pid));
      expect(start).toBeGreaterThan(0);
      expect(distHolder(await servedDist(`${pid} ${start + 1}\n`))).toBeUndefined();
    },
  );
});
