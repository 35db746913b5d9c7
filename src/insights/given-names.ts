import type { TokenTable } from "./nlp.ts";

/**
 * Whether a given name names someone of the office ("kayla at the desk", "Marcus found me a slot"),
 * and not the practitioner ("Dr. Sarah"), the patient's own people ("my daughter Emma"), the patient
 * ("my name is Brenda") or a place or thing ("San Jose", "Trader Joe's", "Madison Ave").
 */

/** Titles of the practitioner: "Dr. Sarah", "chiropractor Mike". */
const PRACTITIONER_TITLES = new Set(["dr", "doc", "doctor", "chiropractor", "chiro", "dc", "prof", "professor"]);

/** Words before a name that make it part of a place's name: "San Diego", "St. Francis", "Lake Mary". */
const PLACE_BEFORE = new Set("san santa st saint mount mt lake fort ft port new in near outside downtown".split(" "));

/** Words after a name that make it a place: "Madison Ave", "Jackson Street", "Carmen Plaza". */
const PLACE_AFTER = new Set(
  "ave avenue st street rd road blvd boulevard dr drive ln lane way hwy highway pkwy parkway county park heights hills mall plaza center centre square hospital university college school club market".split(
    " ",
  ),
);

/** The patient's own people: "my daughter Emma", "her husband Tom", "a friend, Jess". */
const KIN = new Set(
  "son sons daughter daughters wife husband mom mother dad father kid kids child sister brother friend friends partner boyfriend girlfriend fiance fiancee grandson granddaughter grandma grandpa grandmother grandfather niece nephew aunt uncle cousin coworker colleague boss neighbor neighbour baby toddler teen teenager".split(
    " ",
  ),
);

/** Words before a name that make it a thing or a type: "the Wendy's", "a teddy", "such a karen". */
const DETERMINERS = new Set("a an the this that my his her their your".split(" "));

/** What comes before a name that signs off the review: "- Megan", "Love, Karen", "Cheers, Tom". */
const SIGN_DASHES = new Set(["-", "--", "–", "—", "~"]);
const SIGN_OFFS = new Set(["love", "sincerely", "cheers", "regards", "best", "blessings", "xoxo", "xo"]);

/** Titles of the office's people a name may follow: "Ms. Tammy", "Miss Ana". */
const OFFICE_TITLES = new Set(["ms", "mrs", "miss", "mr", "mx"]);

const capitalised = (w: string | undefined) => w !== undefined && /^\p{Lu}.*\p{Ll}/u.test(w);

export function namesSomeoneOfTheOffice(tokens: TokenTable, at: number, clauseStart: number): boolean {
  const { normals, lemmas, values, words } = tokens;
  const before = normals[at - 1]?.replace(/\.$/, "") ?? "";
  const twoBefore = normals[at - 2]?.replace(/\.$/, "") ?? "";
  if (PRACTITIONER_TITLES.has(before) || PLACE_BEFORE.has(before) || DETERMINERS.has(before)) return false;
  if (PLACE_AFTER.has(normals[at + 1]?.replace(/\.$/, "") ?? "")) return false;
  if (KIN.has(before) || (before === "," && KIN.has(twoBefore))) return false;
  // "Highly recommend! - Megan", "Love, Karen": a name signing off the text is the patient's.
  const last = words.every((w, j) => j <= at || !w);
  if (last && (SIGN_DASHES.has(before) || (before === "," && SIGN_OFFS.has(twoBefore)))) return false;
  // "my kids Emma and Noah": the second name of the patient's people is theirs too.
  if ((before === "and" || before === "&") && KIN.has(normals[at - 3] ?? "")) return false;
  // "my chiropractor, Derek, is the best": the name set off after the word for one is theirs.
  if (before === "," && PRACTITIONER_TITLES.has(twoBefore)) return false;
  // "my name is Brenda", "called me Linda", "named Kayla": the patient's name, or no one there.
  if (before === "named" || (twoBefore === "name" && lemmas[at - 1] === "be")) return false;
  if (before === "me" && (lemmas[at - 2] === "call" || lemmas[at - 2] === "name")) return false;
  // A capitalised word before it inside the clause makes it part of a proper name ("Trader Joe's",
  // "Mount Whitney"), unless it is a title or the text shouts ("THANK YOU KAYLA").
  const prior = values[at - 1];
  return !(
    at - 1 > clauseStart &&
    capitalised(prior) &&
    capitalised(values[at]) &&
    !OFFICE_TITLES.has(before) &&
    normals[at - 1] !== "i"
  );
}
