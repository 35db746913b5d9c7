import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { distHolder, SERVER_SCRIPT } from "../../../src/build/dist-holder.ts";

const children: ChildProcess[] = [];
const temp: string[] = [];
afterAll(async () => {
  for (const c of children) c.kill();
  await Promise.all(temp.map((d) => rm(d, { recursive: true, force: true })));
});

/** A process that idles, with `args` on its command line, as /proc shows it. */
function idle(args: string[]): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)", ...args], { stdio: "ignore" });
  children.push(child);
  return child.pid as number;
}

/** DIST_DIR as npm start leaves it: a link into its builds, `pid` recorded beside it. */
async function servedDist(pid: number): Promise<string> {
  const outside = await mkdtemp(path.join(os.tmpdir(), "pr-holder-"));
  temp.push(outside);
  const dist = path.join(outside, "dist");
  await mkdir(path.join(`${dist}.builds`, "served"), { recursive: true });
  await symlink(path.join("dist.builds", "served"), dist);
  await writeFile(`${dist}.served-by`, `${pid}\n`);
  return dist;
}

describe("the process serving DIST_DIR (distHolder)", () => {
  it("is the recorded process while it runs npm start's server", async () => {
    const pid = idle([SERVER_SCRIPT]);
    expect(distHolder(await servedDist(pid))).toBe(pid);
  });

  it("is, for npm start, also one still making its first build, before DIST_DIR is its link", async () => {
    const pid = idle([SERVER_SCRIPT]);
    const dist = await servedDist(pid);
    await rm(dist);
    expect(distHolder(dist)).toBeUndefined();
    expect(distHolder(dist, { linked: false })).toBe(pid);
  });

  it.runIf(process.platform === "linux")(
    "is nobody once the recorded PID belongs to another program (after a crash or a reboot)",
    async () => {
      expect(distHolder(await servedDist(idle(["something-else.js"])))).toBeUndefined();
    },
  );
});
