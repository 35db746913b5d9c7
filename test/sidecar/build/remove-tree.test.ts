import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeTree } from "../../../sidecar/build/remove-tree.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

describe("removeTree", () => {
  it("removes the named file first, then waits on ready() before each folder", async () => {
    const root = await temp.make("pr-remove-tree-");
    const site = path.join(root, "site");
    await mkdir(path.join(site, "reviews", "a"), { recursive: true });
    await writeFile(path.join(site, "_headers.json"), "{}");
    await writeFile(path.join(site, "index.html"), "home");
    await writeFile(path.join(site, "reviews", "a", "index.html"), "a");

    let held = true;
    let open = () => {};
    // Nothing may go ahead until the test lets it.
    const ready = () => (held ? new Promise<void>((go) => (open = go)) : Promise.resolve());
    const removing = removeTree(site, ready, "_headers.json");
    await new Promise((r) => setTimeout(r, 50));
    // Held before the first folder: only the manifest is gone, so a removal cut short never looks complete.
    expect((await readdir(site)).sort()).toEqual(["index.html", "reviews"]);

    held = false;
    open();
    await removing;
    expect(await readdir(root)).toEqual([]);
  });
});
