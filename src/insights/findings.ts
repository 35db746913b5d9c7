/**
 * The results of a test ("my x-ray results", "the results of the MRI", "we went over my results
 * together"): what an examination found, told before any treatment could have done anything; and
 * results foretold ("results take time", "results may vary"). They name no result of the
 * treatment and praise nothing; "great results for my sciatica" still does, and so do the results
 * of a test taken after treatment ("my follow-up x-ray results", "my results after six weeks").
 */

/** Tests whose results are findings: "the x-ray results", "the results of my scan". */
const TESTS = new Set(
  "x-ray x-rays xray xrays ray rays scan scans mri mris ct test tests lab labs blood bloodwork imaging exam exams assessment screening".split(
    " ",
  ),
);
/** Verbs of going through findings with the patient, by lemma: "review the results", "went over my results". */
const REVIEWED = new Set(["review", "discuss", "explain", "interpret", "read"]);
/** Determiners between the verb or "of" and what follows: "the", "my". */
const OWNERS = new Set(["the", "my", "your", "our", "his", "her", "their", "those", "these", "all"]);

/** Words between results and what they will do: "would", "usually", "can". */
const FORETELLING = new Set("will would can could may might should usually often typically generally".split(" "));
/** What results foretold do, in the present: "take time", "vary"; "the results took my breath away" happened. */
const FORETOLD = new Set(["take", "takes", "vary"]);

/** Tests named as taken after treatment: "progress scans", "re-exam results"; "follow-up" is read apart. */
const LATER = new Set(["followup", "progress", "re-exam", "reexam", "re-evaluation", "reevaluation", "latest"]);
/** What "after" counts when it dates a test: "after twelve visits", "after a month of care". */
const SPAN = new Set(
  "visit visits session sessions week weeks month months treatment treatments adjustments".split(" "),
);

/** Whether the results at `i` are of a test taken after treatment, which tells what the treatment did. */
function laterTest(normals: readonly string[], i: number, start: number, end: number): boolean {
  for (let k = Math.max(start, i - 4); k < i; k++) {
    const n = normals[k] as string;
    if (LATER.has(n) || (n === "follow" && (normals[k + 1] === "up" || normals[k + 2] === "up"))) return true;
    // "my before and after x-ray results"
    if (n === "after" && normals[k - 1] === "and" && normals[k - 2] === "before") return true;
  }
  // "went over my results after twelve visits"; "after weeks of pain, we went over my results" dates
  // the visit, not the test.
  for (let k = i + 1; k < end; k++) {
    if (normals[k] !== "after") continue;
    for (let d = 1; d <= 3 && k + d < end; d++) if (SPAN.has(normals[k + d] as string)) return true;
  }
  return false;
}

/** Whether "result(s)" at `i` is a test's findings, in the clause `start`…`end`. */
export function testFindings(
  normals: readonly string[],
  lemmas: readonly string[],
  i: number,
  start: number,
  end: number,
): boolean {
  if (lemmas[i] !== "result" && normals[i] !== "results") return false;
  // "results take time", "results would take a few weeks", "results may vary": results foretold.
  let f = i + 1;
  while (f < end && FORETELLING.has(normals[f] as string)) f++;
  if (f < end && FORETOLD.has(normals[f] as string)) return true;
  if (laterTest(normals, i, start, end)) return false;
  // "my x-ray results", "the scan results": the test before it.
  if (i > start && TESTS.has(normals[i - 1] as string)) return true;
  // "the results of my MRI", "results from the blood test".
  if (i + 1 < end && (normals[i + 1] === "of" || normals[i + 1] === "from")) {
    let k = i + 2;
    while (k < end && OWNERS.has(normals[k] as string)) k++;
    if (k < end && TESTS.has(normals[k] as string)) return true;
  }
  // "we went over my results together", "she explained my results": findings gone through.
  let k = i - 1;
  while (k > start && OWNERS.has(normals[k] as string)) k--;
  if (k === i - 1) return false;
  return REVIEWED.has(lemmas[k] as string) || (normals[k] === "over" && k > start && lemmas[k - 1] === "go");
}
