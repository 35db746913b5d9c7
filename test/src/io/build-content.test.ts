import { afterEach, describe, expect, it } from "vitest";
import {
  forgetBuildContent,
  madeThisBuild,
  perBuild,
  releaseBuild,
  releasedAfterBuild,
  releasePages,
} from "../../../src/io/build-content.ts";

afterEach(() => forgetBuildContent());

describe("releaseBuild", () => {
  it("empties every getStaticPaths list of the build and the index Astro adds to it, then forgets the build", () => {
    const record = { id: "2025-01-02-ana" };
    const reviews = releasedAfterBuild([{ params: { id: record.id }, props: { review: record } }]);
    const months = releasedAfterBuild([{ params: { year: "2025", month: "01" }, props: { reviews: [record] } }]);
    // What Astro's route cache does with the list it is given: indexes it in place, by parameters.
    const keyed = new Map([["2025-01-02-ana", reviews[0]]]);
    Object.assign(reviews, { keyed });
    perBuild("site-data", () => ({ reviews: [record] }));

    releaseBuild();

    expect(reviews).toHaveLength(0);
    expect(keyed.size).toBe(0);
    expect(months).toHaveLength(0);
    expect(madeThisBuild("site-data")).toBeUndefined();
    // The next build notes its own lists; the released ones are not emptied twice or kept.
    const next = releasedAfterBuild([{ params: { id: "b" }, props: {} }]);
    releaseBuild();
    expect(next).toHaveLength(0);
  });

  it("hands getStaticPaths the list itself, so the route cache holds what is emptied", () => {
    const list = [{ params: { id: "a" }, props: {} }];
    expect(releasedAfterBuild(list)).toBe(list);
  });
});

describe("releasePages", () => {
  it("empties the route lists and forgets what the build made, except what it is told to keep", () => {
    const reviews = releasedAfterBuild([{ params: { id: "a" }, props: { review: { id: "a" } } }]);
    perBuild("content", () => ({ reviews: ["a"] }));
    perBuild("site-data", () => ({ dataset: {} }));
    const log = perBuild("review-log", () => ({ entries: 1 }));

    releasePages(["review-log"]);

    expect(reviews).toHaveLength(0);
    expect(madeThisBuild("review-log")).toBe(log);
    // Asking again is an integration placed after the release: it fails, naming the fix, rather than
    // checking the content a second time.
    expect(() => madeThisBuild("site-data")).toThrow(/site-data: .*before releaseSiteData\(\) in astro.config.mjs/);
    expect(() => perBuild("content", () => ({}))).toThrow(/content: this build let go of it/);
    // npm start's build worker then forgets the build as before.
    releaseBuild();
    expect(madeThisBuild("site-data")).toBeUndefined();
  });

  it("does nothing before a build made anything", () => {
    expect(() => releasePages([])).not.toThrow();
  });
});
