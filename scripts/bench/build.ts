import { execFileSync } from "node:child_process";
import { BUILD_NODE_FLAGS, PROJECT_ROOT } from "../../src/build/astro-build.ts";
import type { BuildRun } from "./astro-build.ts";
import { count, type Figure, MiB, seconds } from "./figures.ts";
import { timeInsights } from "./insights-share.ts";
import type { Profile } from "./profile.ts";
import { benchRebuild } from "./rebuild.ts";
import { timeReviewLog } from "./review-log.ts";
import type { Workspace } from "./workspace.ts";

const mib = (b: BuildRun) => `${Math.round(b.peakRssBytes / MiB)} MiB`;
/** The heap limit a build runs with: Node's default under the build's flags, none of which sets it. */
function buildHeapLimit(): string {
  const print = `process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))`;
  const bytes = Number(execFileSync(process.execPath, [...BUILD_NODE_FLAGS, "-e", print], { cwd: PROJECT_ROOT }));
  return `Node's default heap limit under the build's flags (${Math.round(bytes / MiB)} MiB here)`;
}

/**
 * `astro build` wall time at the middle size over the small size, and peak RSS of the build
 * process tree at the middle and large sizes. Content is generated before any build starts, so
 * generation never competes with a timed build for the CPU.
 */
export async function benchBuild(ws: Workspace, p: Profile): Promise<Figure[]> {
  await ws.content(p.small);
  await ws.content(p.middle);
  await ws.content(p.large);
  const small: BuildRun[] = [await ws.dist(p.small)];
  for (let i = 1; i < p.smallBuilds; i++) small.push(await ws.build(p.small));
  const middle = await ws.dist(p.middle);
  const large = await ws.dist(p.large);
  const fastest = small.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const smallTimes = small.map((b) => seconds(b.wallMs)).join(", ");
  const sizeMid = count(p.middle);
  const sizeSmall = count(p.small);
  const sizeLarge = count(p.large);
  const rebuild = await benchRebuild(ws, p, fastest.wallMs);
  const log = await timeReviewLog(await ws.content(p.middle));
  const logMs = Math.max(log.firstMs, log.nextMs);
  const insights = await timeInsights(await ws.content(p.middle));
  const heap = buildHeapLimit();
  return [
    ...rebuild,
    {
      section: "build",
      name: `review log's share of the build, ${sizeMid} reviews`,
      value: logMs / middle.wallMs,
      unit: "ratio",
      target: { op: "<=", value: 0.05 },
      detail: `${Math.round(logMs)} ms (first build of the log ${Math.round(log.firstMs)} ms, next after one edit ${Math.round(log.nextMs)} ms; ${log.entries} entries) / astro build ${seconds(middle.wallMs)}`,
    },
    {
      section: "build",
      name: `insights' share of a cold build, ${sizeMid} reviews`,
      value: insights.wallMs / middle.wallMs,
      unit: "ratio",
      // Issue 31: reading real reviews right may not cost more than a quarter of a cold build.
      target: { op: "<=", value: 0.25 },
      detail: `${seconds(insights.wallMs)} (${seconds(insights.cpuMs)} of CPU on every thread; ${count(insights.reviews)} reviews analysed into an empty cache, then the annotation pass) / astro build ${seconds(middle.wallMs)}`,
    },
    {
      section: "build",
      name: `astro build time, ${sizeMid} / ${sizeSmall} reviews`,
      value: middle.wallMs / fastest.wallMs,
      unit: "ratio",
      // Issue 35: a page per review makes this grow with the reviews; 3 held while pages grew with months.
      target: { op: "<=", value: 4 },
      detail: `${seconds(middle.wallMs)} / ${seconds(fastest.wallMs)} (fastest of ${small.length}: ${smallTimes})`,
    },
    {
      section: "build",
      name: `cold build time per review beyond the ${sizeSmall}-review build, ${sizeMid} reviews`,
      value: (middle.wallMs - fastest.wallMs) / (p.middle - p.small),
      unit: "ms",
      // The ratio above divides by a build that is mostly fixed cost (starting Node, Astro and Vite):
      // a cut there raises the ratio. This is what a page per review costs, whatever the fixed part.
      detail: `(${seconds(middle.wallMs)} - ${seconds(fastest.wallMs)}) / ${count(p.middle - p.small)} reviews; no target`,
    },
    {
      section: "build",
      name: `astro build time, ${sizeLarge} / ${sizeSmall} reviews`,
      value: large.wallMs / fastest.wallMs,
      unit: "ratio",
      detail: `${seconds(large.wallMs)} / ${seconds(fastest.wallMs)}; no target, shows how the build scales`,
    },
    {
      section: "build",
      name: `peak RSS of the build, ${sizeMid} reviews`,
      value: middle.peakRssBytes / MiB,
      unit: "MiB",
      detail: `process tree, sampled from /proc every 50 ms; ${heap}; ${sizeSmall} reviews: ${mib(fastest)}`,
    },
    {
      section: "build",
      name: `peak RSS of the build, ${sizeLarge} reviews`,
      value: large.peakRssBytes / MiB,
      unit: "MiB",
      target: { op: "<=", value: 1536 },
      detail: `succeeded with ${heap}`,
    },
  ];
}
