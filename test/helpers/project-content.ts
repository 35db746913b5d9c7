import { inject } from "vitest";

/**
 * The project's own reviews as committed (git HEAD), extracted once per run by the global setup:
 * tests never read the working copy's `content/`, where an editor may be halfway through a change.
 * Shared by every test of the run, so read it only; copy it to change it.
 */
export const PROJECT_CONTENT = inject("testRun").projectContent;
