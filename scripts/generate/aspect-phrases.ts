/**
 * Sentences about each aspect of content/insights/aspects.yaml, by polarity. They reuse the
 * lexicon's terms so the aspect analysis has something to find, and include negations in both
 * directions ("not painful at all" is praise, "didn't help" is a complaint) because those are what
 * a naive sentiment pass gets wrong. No sentence names a catalogue entry except through a slot.
 */

export const ASPECT_IDS = ["pain-relief", "care", "staff", "scheduling", "billing", "facility", "location"] as const;
export type AspectId = (typeof ASPECT_IDS)[number];

export interface AspectPhrases {
  positive: readonly string[];
  /** Praise phrased with a negation. */
  negatedPositive: readonly string[];
  negative: readonly string[];
  /** Complaints phrased with a negation. */
  negatedNegative: readonly string[];
}

export const ASPECT_PHRASES: Readonly<Record<AspectId, AspectPhrases>> = {
  "pain-relief": {
    positive: [
      "After {weeks} weeks my {complaint} is mostly gone.",
      "I walked out with noticeably less pain than I walked in with.",
      "My range of motion has improved more than I expected.",
      "The {complaint} that kept me up at night has eased, and I'm sleeping through again.",
      "{svc} helped more than anything else I'd tried.",
      "I'm back to {activity} pain-free.",
      "Real results, not just a day of relief.",
      "Within {visits} visits I felt like myself again.",
      "For the first time in {months} months I can get out of bed without stiffness.",
      "My {complaint} is finally back to normal.",
      "No more headaches since my third visit.",
    ],
    negatedPositive: [
      "{svc} was not painful at all.",
      "I was nervous it would hurt, but it wasn't painful in the slightest.",
      "It didn't hurt one bit, just a pop and instant relief.",
      "Nothing about the treatment was painful, which surprised me.",
    ],
    negative: [
      "After {visits} visits I saw no change in my {complaint}.",
      "I had a flare-up the day after and it took a week to settle.",
      "My {complaint} came back within days.",
      "Whatever relief I got lasted about an afternoon.",
      "{svc} left me sore and the {complaint} was just as bad.",
    ],
    negatedNegative: [
      "Honestly, the treatment didn't help my {complaint}.",
      "{svc} did not help at all.",
      "{visits} visits in and my {complaint} is no better.",
      "I never got any lasting relief.",
    ],
  },
  care: {
    positive: [
      "{tech} listened to the whole story before doing anything.",
      "{tech} explained every step and checked in constantly.",
      "{tech} walked me through what was going on with my {complaint}.",
      "Gentle, thorough, and honest about what chiropractic can and can't do.",
      "{tech} answered all my questions without making me feel silly.",
      "{tech} is patient with nervous first-timers like me.",
      "Clear explanation, a realistic care plan, and a re-exam after {weeks} weeks to check progress.",
      "{tech} took the time to show me what to do at home between visits.",
    ],
    negatedPositive: [
      "I never felt rushed.",
      "Nobody tried to sell me a long care plan; {tech} said to come back only if I needed to.",
      "{tech} never made me feel like just another appointment.",
    ],
    negative: [
      "{tech} seemed rushed and barely listened.",
      "The whole visit felt rushed, maybe five minutes with the doctor.",
      "I felt pushed into a {visits}-visit care plan on day one.",
      "{tech} brushed off my questions about whether this would actually help.",
      "It felt like an assembly line: in, crack, out.",
    ],
    negatedNegative: [
      "Nobody explained what they were doing or why.",
      "{tech} was not very gentle, and I was sore for days.",
      "I didn't get a straight answer about how many visits I'd need.",
    ],
  },
  staff: {
    positive: [
      "The front desk is friendly and remembered my name by the second visit.",
      "Everyone on the staff is kind and helpful.",
      "The receptionist went out of her way to sort out my paperwork.",
      "The team made my {relative} feel welcome too.",
      "The front desk staff are the nicest people, always smiling.",
      "When there was a mix-up with my appointment, the front desk was apologetic and fixed it on the spot.",
    ],
    negatedPositive: [
      "Not one staff member was anything but kind.",
      "The front desk never makes you feel like a bother.",
    ],
    negative: [
      "The receptionist was rude when I asked about my bill.",
      "There was a mix-up with my appointment and nobody apologized.",
      "The front desk seemed overwhelmed and talked over me.",
      "One staff member rolled her eyes when I asked a simple question.",
    ],
    negatedNegative: [
      "The front desk was not helpful at all.",
      "Nobody at the front desk could tell me who I'd be seeing.",
      "Staff didn't seem to care that I'd been waiting.",
    ],
  },
  scheduling: {
    positive: [
      "They squeezed me in the same day.",
      "I booked online at night and had a slot the next morning.",
      "Always seen on time; I've never waited more than {fewMinutes} minutes.",
      "Online booking makes it easy to reschedule around work.",
      "They got me a same day appointment when I could barely stand.",
      "The Saturday morning hours are a lifesaver for my schedule.",
    ],
    negatedPositive: [
      "No wait at all, which is rare these days.",
      "I've never had to wait past my appointment time.",
      "Booking was never a problem, even on short notice.",
    ],
    negative: [
      "I waited {minutes} minutes past my appointment time.",
      "They were running behind on every visit, {minutes} minutes or more.",
      "The phone goes to voicemail and nobody calls back.",
      "Online booking showed an open slot that didn't exist.",
      "Getting a first appointment took {weeks} weeks.",
      "They charged me a late cancellation fee when I called the day before.",
    ],
    negatedNegative: [
      "Nobody answered the phone for two days.",
      "They couldn't tell me how long the wait would be.",
      "My appointment was not on the schedule when I arrived.",
    ],
  },
  billing: {
    positive: [
      "They checked my insurance before the first visit and there were no surprises.",
      "Prices are fair and posted, and my copay is {copay}.",
      "The billing team handled the claim with my insurance without me lifting a finger.",
      "Cheaper than I expected, even paying out of pocket.",
      "They set me up with a payment plan and used my HSA card without any fuss.",
      "I got a written estimate of the cost before anything was billed.",
    ],
    negatedPositive: [
      "Not cheap, but worth every penny.",
      "Never a surprise bill in {months} months of visits.",
      "Insurance was no hassle at all.",
    ],
    negative: [
      "I got a surprise bill for {amount} weeks later.",
      "Insurance was billed wrong twice and fixing it took {weeks} weeks.",
      "They pushed a prepaid package I didn't need.",
      "Expensive for fifteen minutes with the doctor.",
      "I'm still waiting on a refund of {amount}.",
      "I was charged a fee nobody mentioned up front.",
    ],
    negatedNegative: [
      "Nobody told me my insurance wouldn't cover it.",
      "The price was not what they quoted me on the phone.",
      "I couldn't get a straight answer about my deductible.",
    ],
  },
  facility: {
    positive: [
      "The clinic is spotless and the treatment rooms are quiet.",
      "Clean, bright waiting room with comfortable chairs.",
      "The facility was recently renovated and it shows.",
      "Everything is clean, down to the bathroom.",
      "The lobby is calm and the elevator makes it easy if you're hobbling.",
    ],
    negatedPositive: ["Not a speck of dust anywhere.", "The treatment room never feels cramped."],
    negative: [
      "The waiting room was cramped and the bathroom wasn't clean.",
      "You can hear everything through the treatment room walls.",
      "Jackhammer noise from next door made it hard to relax.",
      "The lobby felt dated and a little grimy.",
    ],
    negatedNegative: [
      "The treatment room was not very clean when I came in.",
      "There's no privacy in those treatment rooms.",
    ],
  },
  location: {
    positive: [
      "Easy parking right out front.",
      "Close to home and easy to get to.",
      "The office on {street} is easy to find.",
      "They validate parking in the garage across the street.",
      "An easy commute even at rush hour.",
    ],
    negatedPositive: ["Parking was not a problem at all.", "Never had trouble finding parking."],
    negative: [
      "Parking is a nightmare with the road work on {street}.",
      "I got a parking ticket on the street because the lot was full.",
      "Traffic on {street} makes the commute rough at rush hour.",
      "The garage fills up by mid-morning.",
      "The construction out front makes getting in a pain.",
    ],
    negatedNegative: [
      "There's no parking anywhere near the entrance.",
      "Nobody told me the front lot was closed for construction.",
    ],
  },
};
