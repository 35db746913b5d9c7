import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codeIdentity, codeSinceMs } from "../../../sidecar/build/code-identity.ts";
import { searchEtag, sinceEtag } from "../../../sidecar/build/result-store.ts";
import { strongEtag } from "../../../src/http-headers/manifest.ts";

/**
 * Search and since ETags change when the code that writes the answers does, not only the data: a
 * deploy that changed the answers' shape on the same content kept the old ETags, and a cache that
 * held an old body was told 304 for the new one.
 */
const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "pr-code-identity-"));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

const BASE = {
  "src/search/result-json.ts": "export const a = 1;\n",
  "sidecar/http/app.ts": "export const b = 2;\n",
  "package-lock.json": '{"lockfileVersion": 3}\n',
};

describe("the code identity in search and since ETags", () => {
  it("changes with any source of src/ or sidecar/, or the lock file, and not with other files", async () => {
    const base = codeIdentity(await project(BASE));
    expect(codeIdentity(await project(BASE))).toBe(base);
    expect(codeIdentity(await project({ ...BASE, "README.md": "docs\n", "content/x.yaml": "a: 1\n" }))).toBe(base);
    const changes: Record<string, string>[] = [
      { "src/search/result-json.ts": "export const a = 2;\n" },
      { "sidecar/http/app.ts": "export const b = 3;\n" },
      { "sidecar/mcp/new.ts": "export {};\n" },
      { "package-lock.json": '{"lockfileVersion": 3, "packages": {}}\n' },
    ];
    for (const changed of changes) {
      expect(codeIdentity(await project({ ...BASE, ...changed }))).not.toBe(base);
    }
  });

  it("is hashed into the ETags of search and since answers, beside the data", () => {
    const code = codeIdentity();
    expect(searchEtag("v1", "https://r.example", "q=neck")).toBe(strongEtag(`${code}\nv1\nhttps://r.example\nq=neck`));
    expect(sinceEtag("2026-01-01", "chain")).toBe(strongEtag(`${code}\n2026-01-01\nchain`));
    expect(searchEtag("v1", "https://r.example", "q=neck")).not.toBe(searchEtag("v2", "https://r.example", "q=neck"));
  });

  it("is dated by when this process started, whole seconds, whatever the files' own dates", () => {
    expect(codeSinceMs()).toBe(Math.floor(performance.timeOrigin / 1000) * 1000);
    expect(codeSinceMs()).toBeLessThanOrEqual(Date.now());
  });
});
