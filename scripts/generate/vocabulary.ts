/**
 * Word lists that fill the generic slots. None contains a catalogue name or alias (checked by
 * test/scripts/generate.test.ts), so filling them never adds a mention the review did not plan.
 */

export const COMPLAINTS = [
  "lower back pain",
  "neck pain",
  "sciatica",
  "tension headaches",
  "shoulder pain",
  "hip pain",
  "mid-back stiffness",
  "knee pain",
  "jaw tension",
  "neck stiffness",
  "tailbone pain",
  "upper back pain",
  "rib pain",
  "frozen shoulder",
] as const;

export const CAUSES = [
  "moving apartments",
  "a fall while hiking",
  "years of desk work",
  "lifting my toddler",
  "a ski trip",
  "sleeping wrong on a hotel pillow",
  "shoveling snow",
  "a weekend of yard work",
  "picking up a heavy box",
  "a new office chair",
  "training for a half marathon",
  "a long flight",
  "repainting the house",
  "a pickleball tournament",
] as const;

export const ACTIVITIES = [
  "running",
  "gardening",
  "lifting my kids",
  "golf",
  "pickleball",
  "yoga",
  "hiking",
  "sleeping on my side",
  "working at my desk",
  "climbing",
  "swimming laps",
] as const;

export const RELATIVES = [
  "sister",
  "coworker",
  "neighbor",
  "husband",
  "wife",
  "mom",
  "dad",
  "physical therapist",
  "personal trainer",
  "best friend",
] as const;

export const NUMBER_WORDS = ["two", "three", "four", "five", "six", "eight", "ten", "twelve"] as const;

/** Display first names. Catalogue people's names are filtered out at run time as well. */
export const FIRST_NAMES: readonly string[] = `
  Maria Greg Priya Dana Mike Heather Lauren Carlos Beth Sam Janet Kevin Alicia Nate Marisol Tyler Erin
  Doug Amy Wes Karen Jason Hannah Ben Sheila Olivia Phil Yuki Grace Frank Rachel Steve Mei Andre Kim
  Luis Tanya Chris Jess Nora Derek Paula Ian Monica Vanessa Ryan Elena Matt Cheryl Owen Aisha Bill
  Lily Hector Diane Kyle Brooke Jorge Sandra Roberta Tim Kelsey Victor Lorraine Alex Denise Rob Sunita
  Rosa Dev Michelle Pete Walt Ellen Ravi Liz Mark Jessica Paul Dan Carmen Felicia Henry Abby Bruce Leo
  Sarah Don Ana Joan Megan Lisa Omar Fatima Hiroshi Ngozi Tariq Ingrid Mateo Camila Wen Arjun Siobhan
  Kwame Lena Dmitri Esther Rahul Bao Zoe Gabriel Ruth Malik Noor Pedro Hana Colin Keiko Tomas Adaeze
  Rita Julian Marta Eli Farah Hugo Ines Jae Kofi
`
  .trim()
  .split(/\s+/);

/**
 * How each service of the sample catalogue reads in a sentence ("I came in for {svc}"). Every
 * phrase contains the service's name or an alias so mention detection finds it. Services not
 * listed here (a different business.yaml) fall back to their lowercased name and aliases.
 */
export const SERVICE_PHRASES: Readonly<Record<string, readonly string[]>> = {
  "spinal-adjustment": ["the adjustment", "a spinal adjustment", "my adjustments", "spinal manipulation"],
  "sports-injury": ["sports injury care", "treatment for a running injury", "care for my sports injury"],
  "massage-therapy": ["the massage", "a deep tissue massage", "massage therapy"],
  "prenatal-chiropractic": ["prenatal care", "the Webster technique", "pregnancy care"],
  "pediatric-chiropractic": ["pediatric chiropractic for my son", "children's chiropractic", "pediatric care"],
  "spinal-decompression": ["spinal decompression", "the decompression table", "decompression sessions"],
  "corrective-exercise": ["the rehab program", "the home exercises", "corrective exercises"],
  "posture-assessment": ["a posture assessment", "the posture screening", "a posture analysis"],
  "dry-needling": ["dry needling", "a needling session"],
  "auto-injury": ["whiplash treatment", "auto accident care", "care after my car accident"],
  "x-ray": ["on-site x-rays", "an x-ray", "the x-rays"],
};
