/**
 * The results of a test ("my x-ray results", "the results of the MRI", "we went over my results
 * together"): what an examination found, told before any treatment could have done anything; and
 * results foretold ("results take time", "results may vary"). They name no result of the
 * treatment and praise nothing; "great results for my sciatica" still does.
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
