/**
 * The one wording of a schema issue as text, `path: message`: zod's issues and the Standard Schema
 * issues of the MCP SDK's schemas alike (a path segment may be a key or `{ key }`). Where a reader
 * needs more (the file, line and value an editor needs), src/content/errors.ts builds on the path.
 */
export interface SchemaIssue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
}

/** The issue's path as dotted text (`params.arguments.id`); empty at the root. */
export function issuePath(issue: SchemaIssue): string {
  return (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".");
}

/** `path: message`; at the root `root: message`, or the message alone when `root` is empty. */
export function describeIssue(issue: SchemaIssue, root = ""): string {
  const at = issuePath(issue) || root;
  return at ? `${at}: ${issue.message}` : issue.message;
}
