/**
 * The narrative around the aspect sentences: how a visit started, who treated it, where the
 * reviewer lives, how they sign off, and the title. Catalogue entries appear only through the
 * `{tech}`, `{svc}` and `{area}` slots, so the mentions a review makes are the ones it planned.
 */

import type { AspectId } from "./aspect-phrases.ts";

export type Tone = "positive" | "mixed" | "negative";

export const OPENERS: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "I came in with {complaint} after {cause}.",
    "{months} months of {complaint} finally got me through the door.",
    "First time seeing a chiropractor, and I was nervous.",
    "My {relative} recommended this place when my {complaint} flared up after {cause}.",
    "I'd put off dealing with my {complaint} for years.",
    "I've been coming here for {months} months for {complaint}.",
    "Found this clinic on my {relative}'s recommendation after {cause} left me with {complaint}.",
    "I showed up barely able to sit, thanks to {cause}.",
  ],
  mixed: [
    "I came in with {complaint} after {cause}.",
    "I went in for {complaint} on my {relative}'s recommendation.",
    "I've had {months} months of visits here for {complaint}, so this is a considered review.",
    "Mixed feelings about this one.",
  ],
  negative: [
    "I came in with {complaint} after {cause}.",
    "I really wanted this to work for my {complaint}.",
    "My {relative} loves this place, so I expected more.",
    "I gave it {visits} visits before writing this.",
  ],
};

export const TECH_SENTENCES: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "{tech} is fantastic.",
    "I've been seeing {tech} for {months} months now.",
    "{tech} figured out in one visit what two other offices missed.",
    "{tech} worked with {tech2} on my plan, and they clearly talk to each other.",
    "Ask for {tech}.",
    "{tech} adjusted the plan when the first approach didn't click.",
  ],
  mixed: [
    "{tech} was good, no complaints there.",
    "I liked {tech}, but it took a while to get in with {tech2}.",
    "{tech} knows the craft.",
  ],
  negative: [
    "I saw {tech} twice and never the same story twice.",
    "I was switched from {tech} to {tech2} without being asked.",
    "{tech} may be great for some people, not for me.",
  ],
};

export const SERVICE_SENTENCES: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "I came in for {svc} with {tech}.",
    "{tech} recommended {svc} and I'm glad I tried it.",
    "I started {svc} {weeks} weeks ago.",
    "{svc} has become part of my routine.",
  ],
  mixed: ["I came in for {svc}.", "{svc} was fine, nothing special.", "I booked {svc} with {tech}."],
  negative: ["I came in for {svc}.", "I paid for {svc} and can't say it did much.", "I booked {svc} with {tech}."],
};

export const SECOND_SERVICE_SENTENCES: Readonly<Record<Tone, readonly string[]>> = {
  positive: ["I also tried {svc2}, which I'd recommend too.", "{svc2} on the side has helped as well."],
  mixed: ["They added {svc2} after a few weeks.", "I also had {svc2}, which was okay."],
  negative: ["They also talked me into {svc2}.", "{svc2} was added to the bill as well."],
};

export const AREA_SENTENCES: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "I drive in from {area} and it's worth the drive.",
    "{area} local here.",
    "Best chiropractor around {area}, as far as I'm concerned.",
    "Even coming from {area}, I wouldn't go anywhere else.",
  ],
  mixed: ["The drive from {area} adds up.", "I come in from {area}."],
  negative: ["Not worth the drive from {area}.", "I'll find something closer to {area}."],
};

/** Joins a contrasting sentence to the tone of the rest: "Only knock: ..." or "To be fair, ...". */
export const TURNS: Readonly<Record<Tone, readonly string[]>> = {
  positive: ["Only knock: ", "My one complaint: ", "If I had to nitpick, ", "Minor thing, but "],
  mixed: ["On the other hand, ", "That said, ", "But ", ""],
  negative: ["To be fair, ", "I'll say this: ", "In fairness, ", ""],
};

export const CLOSERS: Readonly<Record<number, readonly string[]>> = {
  5: [
    "Highly recommend.",
    "Can't recommend them enough.",
    "Five stars, no hesitation.",
    "I'll be back.",
    "Would recommend to anyone with {complaint}.",
    "Thank you, {tech}!",
  ],
  4: ["Recommended.", "I'll keep going.", "Would recommend, with that one caveat.", "Good experience overall."],
  3: ["Might give them another try.", "Three stars for now.", "Decent, but not what I hoped."],
  2: ["I hope they fix this.", "Disappointing.", "Probably not going back."],
  1: ["I won't be going back.", "Look elsewhere.", "Avoid.", "Save your money."],
};

/** Whole one-sentence reviews. */
export const ONE_LINERS: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "{tech} is the best!",
    "{svc} with {tech} is worth every penny.",
    "Great care, friendly staff, no wait.",
    "Fixed my {complaint} in {visits} visits.",
    "Best chiropractor in {area}.",
    "{tech} and the whole team are wonderful.",
  ],
  mixed: ["Good care, long waits.", "{tech} is great, the billing less so.", "Helpful but pricey."],
  negative: ["Rude front desk and a surprise bill.", "{svc} did nothing for my {complaint}.", "Never called me back."],
};

/** Titles that fit any review of the tone. */
export const TITLES: Readonly<Record<Tone, readonly string[]>> = {
  positive: [
    "Back on my feet in {weeks} weeks",
    "{tech} is the real deal",
    "Best chiropractor in {area}",
    "Great experience from start to finish",
    "So glad I tried {svc}",
    "Highly recommend",
    "Wish I'd come sooner",
  ],
  mixed: ["Helped some, not all", "{tech} is great, the rest needs work", "Mixed feelings", "Good care, rough edges"],
  negative: ["Disappointed", "Not for me", "Expected more", "Would not return"],
};

/** Titles that sum up one aspect, used when the review has a sentence of that polarity about it. */
export const ASPECT_TITLES: Readonly<Record<AspectId, { positive: readonly string[]; negative: readonly string[] }>> = {
  "pain-relief": {
    positive: ["Finally sleeping through the night", "No more {complaint}", "Life-changing for my {complaint}"],
    negative: ["Didn't help my {complaint}", "No relief after {visits} visits"],
  },
  care: {
    positive: ["Gentle, thorough care", "A doctor who listens"],
    negative: ["Felt rushed", "Assembly-line care"],
  },
  staff: {
    positive: ["Friendliest front desk in town", "Lovely staff"],
    negative: ["Rude front desk", "Great doctor, frustrating front desk"],
  },
  scheduling: {
    positive: ["Seen the same day", "Always on time"],
    negative: ["Long waits", "Good doctor, long waits"],
  },
  billing: {
    positive: ["Honest pricing", "No surprise bills"],
    negative: ["Good doctor, surprise bill", "Billing mess"],
  },
  facility: { positive: ["Spotless clinic"], negative: ["Needs a deep clean"] },
  location: { positive: ["Worth the drive", "Easy parking"], negative: ["Parking is a nightmare"] },
};
