import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssue, issuePath } from "../../../src/api/schema-issues.ts";

/** The one wording of a schema issue, from real zod issues and Standard Schema's `{ key }` segments. */

const Schema = z.object({ params: z.object({ arguments: z.object({ id: z.string() }) }) });

describe("schema issues as text", () => {
  it("names a nested zod issue by its dotted path", () => {
    const issue = Schema.safeParse({ params: { arguments: { id: 7 } } }).error?.issues[0];
    expect(issue && issuePath(issue)).toBe("params.arguments.id");
    expect(issue && describeIssue(issue)).toBe("params.arguments.id: Invalid input: expected string, received number");
  });

  it("reads Standard Schema path segments given as { key }", () => {
    expect(describeIssue({ message: "Required", path: [{ key: "params" }, "name"] })).toBe("params.name: Required");
  });

  it("names a root issue by the caller's word, or gives the message alone", () => {
    const issue = z.string().safeParse(1).error?.issues[0];
    expect(issue && describeIssue(issue, "params")).toBe("params: Invalid input: expected string, received number");
    expect(issue && describeIssue(issue)).toBe("Invalid input: expected string, received number");
  });
});
