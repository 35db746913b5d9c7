import type { AspectId } from "./aspect-phrases.ts";
import type { TopicHit } from "./compose.ts";
import type { Rng } from "./prng.ts";

/**
 * Owner replies. Like the practice's real ones they thank by name, answer the specific complaint
 * (the first negative aspect in the review) with a concrete step, and are signed by the director.
 */

const THANKS_POSITIVE = ["the kind words", "taking the time to write this", "trusting us with your care"];
const THANKS_NEGATIVE = ["telling us about this directly", "the honest feedback", "taking the time to write this"];

const POSITIVE_BODIES = [
  "We're so glad you're feeling better.",
  "It's a pleasure having you in the practice.",
  "Reviews like this make the whole team's week.",
  "We'll pass this along to everyone who helped.",
  "See you at your next visit!",
  "Keep up with those stretches between visits.",
];

const FIXES: Readonly<Record<AspectId, readonly string[]>> = {
  "pain-relief": [
    "Not every case responds the same way, and if chiropractic isn't the right fit we'd like to refer you to someone who can help.",
    "I'd like to offer a free re-exam to look at why your progress stalled.",
  ],
  care: [
    "I've shared your feedback with the doctor you saw, and I'd like to talk with you personally.",
    "Every patient should leave understanding their care plan, and we fell short of that.",
  ],
  staff: [
    "I've spoken with our front desk team about this, and that is not how we want anyone treated.",
    "We've reviewed what happened at the front desk and are retraining on exactly this.",
  ],
  scheduling: [
    "Waiting that long is not acceptable, and we've added staff to the phones and more slots to online booking.",
    "We've changed how we schedule new patients so that visits start on time.",
  ],
  billing: [
    "I've asked our billing coordinator to call you this week and go through every charge with you.",
    "A written estimate should have come before any treatment, and that is now our policy for every new patient.",
  ],
  facility: [
    "We've changed our cleaning schedule so every room is reset between patients.",
    "We're adding sound panels to the treatment rooms this month.",
  ],
  location: [
    "We validate parking in the garage across the street, and staff can meet you at the elevator.",
    "We're sorry about the parking during the road work; please ask us about validated garage parking.",
  ],
};

const GENERIC_FIXES = [
  "Please call the front desk and ask for me so we can make this right.",
  "I'd welcome the chance to talk this through with you.",
];

export interface ReplyInput {
  rating: number;
  /** The reviewer's first name, or `undefined` for reviewers who sign with initials. */
  firstName: string | undefined;
  topics: readonly TopicHit[];
  /** Who signs: e.g. "Dr. Anika Patel". */
  director: string;
  businessName: string;
}

export function composeReply(rng: Rng, input: ReplyInput): string {
  const positive = input.rating >= 4;
  const thanks = rng.pick(positive ? THANKS_POSITIVE : THANKS_NEGATIVE);
  const opening = input.firstName ? `${input.firstName}, thank you for ${thanks}.` : `Thank you for ${thanks}.`;
  const complaint = input.topics.find((t) => !t.positive);
  const body: string[] = [];
  if (positive) body.push(...rng.sample(POSITIVE_BODIES, rng.int(1, 2)));
  if (!positive) body.push("I'm sorry your experience fell short.");
  if (complaint) body.push(rng.pick(FIXES[complaint.aspect]));
  if (!positive) body.push(rng.pick(GENERIC_FIXES));
  const signature = `— ${input.director} and the ${input.businessName} team`;
  return `${[opening, ...body].join(" ")}\n\n${signature}`;
}
