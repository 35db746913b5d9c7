import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Words of the domain lexicons (content/insights/sentiment.yaml, aspects.yaml) in the senses a patient
 * also uses them in, where they are no complaint and name no aspect; 3-star reviews so the rating
 * cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("closed", () => {
  it("names the schedule when the practice closes, not when eyes close or a session ends", () => {
    expect(read("The office was closed for the holidays and no one told me.")).toEqual(["scheduling:negative"]);
    expect(read("I closed my eyes and relaxed.")).toEqual([]);
    expect(read("He closes every session with a stretch.")).toEqual(["care:neutral"]);
  });
});

describe("good luck", () => {
  it("is kind when wished on the practice or the patient, a warning only when wished on the reader", () => {
    expect(read("Good luck to you all in the new office!")).toEqual(["facility:neutral"]);
    expect(read("Good luck with the new baby, Dr. Amy!")).toEqual(["care:neutral"]);
    expect(read("The staff wished me good luck before surgery.")).toEqual(["staff:neutral"]);
    expect(read("Good luck with parking.")).toEqual(["location:negative"]);
  });
});

describe("couldn't get in", () => {
  it("is an appointment not had, not the condition a patient came with", () => {
    expect(read("Before I came here I couldn't get in and out of bed.")).not.toContain("scheduling:negative");
    expect(read("Couldn't get in to see Dr. Amy for a month.")).toEqual(["care:negative"]);
  });
});

describe("hard to reach", () => {
  it("is a desk no one answers, not a spot on the body the practitioner reached", () => {
    expect(read("He found a knot in a hard to reach spot under my shoulder blade.")).not.toContain(
      "pain-relief:negative",
    );
    expect(read("She worked on the hard to reach muscles around my hip.")).toEqual(["care:neutral"]);
  });
});

describe("left me with", () => {
  it("is a poor result when it leaves a condition, a good one when it leaves little or none of it", () => {
    expect(read("The adjustment left me with a sore neck.")).toEqual(["pain-relief:negative"]);
    expect(read("The adjustment left me with no pain at all.")).toEqual(["pain-relief:positive"]);
    expect(read("Three sessions left me with less pain than I've had in years.")).toEqual(["pain-relief:positive"]);
    expect(read("Her treatment left me with hardly any stiffness.")).toEqual(["pain-relief:positive"]);
  });
});

describe("still learning", () => {
  it("is a desk new to its work, not a patient learning the exercises given", () => {
    expect(read("I'm still learning the stretches she showed me.")).toEqual(["care:neutral"]);
    expect(read("The new ones at the front desk are still learning.")).toEqual(["staff:negative"]);
  });
});

describe("cowboy", () => {
  it("is a practitioner called one, not a patient who works as one", () => {
    expect(read("I work as a cowboy on a ranch and Dr. Smith keeps my back in shape.")).toEqual(["care:positive"]);
    expect(read("He is a total cowboy.")).toEqual(["care:negative"]);
  });
});

describe("faded", () => {
  it("is a good result when a condition fades, a poor one when the relief does", () => {
    expect(read("My tension headaches have faded to almost nothing.")).toEqual(["pain-relief:positive"]);
    expect(read("The relief faded after a week.")).toEqual(["pain-relief:negative"]);
    expect(read("The improvement faded after a week.")).toEqual(["pain-relief:negative"]);
  });
});

describe("pay", () => {
  it("is no complaint by itself, but paying twice for a thing, or being made to pay, is", () => {
    expect(read("They made me pay for x-rays I never got.")).toEqual(["billing:negative"]);
    expect(read("I had to pay twice for the same visit.")).toEqual(["billing:negative"]);
    expect(read("I paid twice a month on the plan, which was easy.")).toEqual(["billing:positive"]);
  });
});

describe("charged", () => {
  it("is a price told when a rate follows, a complaint when a charge is", () => {
    expect(read("Self-pay patients are charged $65 per adjustment.")).toEqual(["billing:neutral"]);
    expect(read("Billed $120 per session, way more than they quoted.")).toEqual(["billing:negative"]);
    expect(read("Follow-ups are charged by the length of the session.")).toEqual(["billing:neutral"]);
    expect(read("They charge 45 dollars a visit.")).toEqual(["billing:neutral"]);
    expect(read("They charged me $120 for a missed appointment.")).toContain("billing:negative");
  });
});

describe("techniques and routines", () => {
  it("are told, not judged: a drop table, a favoured technique, progress tracked", () => {
    expect(read("He favors the activator over manual adjustments.")).toEqual(["care:neutral"]);
    expect(read("They use a drop table for most of it.")).not.toContain("facility:negative");
    expect(read("The doctor re-checks x-rays every few months to track progress.")).toEqual(["care:neutral"]);
  });
});

describe("a pain", () => {
  it("is a nuisance when something is one, and the patient's symptom otherwise", () => {
    expect(read("Getting a Saturday slot is a pain.")).toEqual(["scheduling:negative"]);
    expect(read("The parking lot was such a pain that I took the bus.")).toEqual(["location:negative"]);
    expect(read("My lower back has been a pain for years.")).toEqual(["pain-relief:neutral"]);
    expect(read("My sciatica was a real pain before I came here, now it's gone.")).toEqual(["pain-relief:positive"]);
    expect(read("I had a pain in my hip for months.")).toEqual(["pain-relief:neutral"]);
  });
});

describe("at the front", () => {
  it("is the front desk when it says who, and a place when a door or 'of' follows", () => {
    expect(read("The lady at the front was a gem.")).toEqual(["staff:positive"]);
    expect(read("Marta at the front desk is a gem.")).toEqual(["staff:positive"]);
    expect(read("I was left standing at the front door in the rain.")).toEqual([]);
    expect(read("We queued at the front of the building.")).toEqual(["facility:neutral"]);
    expect(read("Parking at the front is a nightmare.")).toEqual(["location:negative"]);
  });
});

describe("a lot", () => {
  it("is an amount after 'a' or before 'of', and a parking lot when shared or placed", () => {
    expect(read("The stretches she showed me helped my shoulder a lot.")).not.toContain("location:positive");
    expect(read("Her kindness meant a lot to my mother.")).not.toContain("location:positive");
    expect(read("My back hurt a lot across my shoulder blades.")).toEqual(["pain-relief:neutral"]);
    expect(read("They ask lots of questions at intake.")).not.toContain("location:neutral");
    expect(read("The clinic shares a lot with a tyre shop, and it is always full.")).toContain("location:negative");
    expect(read("Parking is in a lot behind the bank, which is always full.")).toEqual(["location:negative"]);
  });
});

describe("a bus stop", () => {
  it("is where a bus halts, no halt to anything, and still a complaint when the service stops", () => {
    expect(read("The number 9 bus stops right by the pharmacy next door.")).not.toContain("location:negative");
    expect(read("There's a tram stop at the corner of the block.")).not.toContain("location:negative");
    expect(read("The last bus stops running at seven, so evening visits are out for me.")).not.toContain(
      "location:positive",
    );
  });
});

describe("work", () => {
  it("praises when something worked, and tells only the work done when someone works on something", () => {
    expect(read("The adjustments really worked for my lower back.")).toContain("pain-relief:positive");
    expect(read("Two months in, nothing has worked on my sciatica.")).toContain("pain-relief:negative");
    expect(read("Dr. Amy worked on my upper back for ten minutes.")).toEqual(["care:neutral"]);
    expect(read("The doctor worked out the tight spot in my calf with his thumbs.")).not.toContain("care:positive");
    expect(read("There's a desk and a heat lamp in the room where she works.")).not.toContain("care:positive");
    expect(read("Dr. Lee worked his magic on my neck.")).toEqual(["care:positive"]);
    // "the works": everything done, no treatment said to work.
    expect(read("Dr. Amy measured my range of motion, checked my reflexes, the works.")).not.toContain(
      "pain-relief:positive",
    );
  });
});

describe("down and right that only point", () => {
  it("reads a practitioner who sat down, and x-rays taken right there, as no judgement", () => {
    expect(read("The chiropractor sat down and went through my x-rays with me.")).toEqual(["care:neutral"]);
    expect(read("They took the x-rays right there in the office.")).not.toContain("facility:positive");
    expect(read("The front desk let me down again.")).toEqual(["staff:negative"]);
  });
});

describe("block", () => {
  it("judges as a verb, not as a noun: a street's length or a bundle of visits", () => {
    expect(read("The clinic is four blocks from the station.")).toEqual(["facility:neutral"]);
    expect(read("A delivery truck blocked the parking lot.")).toEqual(["location:negative"]);
  });
});

describe("leave", () => {
  it("is no complaint when a thing is left somewhere, as a car in a lot", () => {
    expect(read("You can leave your car in the parking garage next door.")).toEqual(["location:neutral"]);
    expect(read("Patients leave their cars along the street by the clinic.")).toEqual(["facility:neutral"]);
  });
});

describe("friend", () => {
  it("names someone, no praise, unless the practice is likened to one", () => {
    expect(read("The doctor gave me the same speech my friend got.")).toEqual(["care:neutral"]);
    expect(read("The receptionist treats you like an old friend.")).toEqual(["staff:positive"]);
    expect(read("The doctor treats you like a friend.")).toEqual(["care:positive"]);
  });
});

describe("pretty", () => {
  it("is a degree before an adjective or adverb, no praise, and praise of a thing called pretty", () => {
    expect(read("I'm pretty sure the man at the front desk smokes on his break.")).toEqual(["staff:neutral"]);
    expect(read("The wait was pretty long.")).toEqual(["scheduling:negative"]);
    expect(read("The new treatment rooms are pretty.")).toEqual(["facility:positive"]);
    expect(read("They have a pretty waiting room with a fish tank.")).toEqual(["facility:positive"]);
  });
});

describe("nerve", () => {
  it("is a part of the body, no complaint by itself, and audacity only when someone had the nerve", () => {
    const nerve =
      "A nerve in my lower back had been flaring for weeks before I called, and the receptionist was lovely.";
    expect(read(nerve)).toEqual(["staff:positive"]);
    expect(read("My c6 nerve had been pinching for months when I booked.")).not.toContain("scheduling:negative");
    expect(read("She had the nerve to bill me for a session I never attended.")).toContain("care:negative");
    // Nerves that someone got on are the patient's patience, not a part of the body.
    expect(read("The man at the front desk got on my nerves.")).toEqual(["staff:negative"]);
  });
});

describe("still", () => {
  it("is someone keeping on after a person or the practitioner, and a condition unchanged after the condition", () => {
    expect(read("Six weeks for my hip and the doctor still can't say what is causing it.")).not.toContain(
      "pain-relief:negative",
    );
    expect(read("I asked him to go gently on my sore neck and he still cracked it hard.")).not.toContain(
      "pain-relief:negative",
    );
    expect(read("My hip still aches every morning.")).toEqual(["pain-relief:negative"]);
    expect(read("Three visits in, my shoulder is still stiff.")).toEqual(["pain-relief:negative"]);
    expect(read("My son went for two months and he still has migraines.")).toContain("pain-relief:negative");
    expect(read("He worked on both ankles but they still hurt.")).toContain("pain-relief:negative");
  });
});

describe("warned", () => {
  it("judges nothing by itself, and a warning nobody gave is a complaint", () => {
    const warned = "My hip ached for a day after the adjustment, which the doctor had warned me could happen.";
    expect(read(warned)).toEqual(["pain-relief:negative"]);
    expect(read("Nobody warned me the x-rays would cost extra.")).toEqual(["billing:negative"]);
    expect(read("The chiropractor didn't warn me before he cracked my neck.")).toEqual(["care:negative"]);
  });
});

describe("results of a test", () => {
  it("are what an examination found, no result of the treatment, where results told alone still praise", () => {
    expect(read("Dr. Amy and I went over my results together.")).toEqual(["care:neutral"]);
    expect(read("The front desk emailed me my MRI results.")).not.toContain("pain-relief:positive");
    expect(read("She explained the results of my posture scan.")).not.toContain("pain-relief:positive");
    expect(read("I saw real results after four adjustments.")).toEqual(["pain-relief:positive"]);
    expect(read("My follow-up x-ray results were incredible.")).toEqual(["pain-relief:positive"]);
    expect(read("We went over my results after twelve visits and I was thrilled.")).toEqual(["pain-relief:positive"]);
    expect(read("After weeks of back pain, Dr. Amy went over my MRI results with me.")).not.toContain(
      "pain-relief:positive",
    );
  });

  it("are no result yet when foretold, and one when told as what happened", () => {
    expect(read("Dr. Amy warned me that results would take a while.")).toEqual(["care:neutral"]);
    expect(read("Results may vary.")).toEqual([]);
    expect(read("The results took my breath away.")).toEqual(["pain-relief:positive"]);
  });
});

describe("set phrases", () => {
  it("read 'kind of' as a degree or a sort, and 'so kind of them' as praise", () => {
    expect(read("The man at the front desk was kind of short with me.")).toEqual(["staff:negative"]);
    expect(read("I had never been to any kind of chiropractor.")).toEqual(["care:neutral"]);
    expect(read("It was so kind of them to squeeze me in.")).toEqual(["scheduling:positive"]);
    expect(read("What kind of doctor does that?")).toEqual(["care:neutral"]);
    expect(read("Honestly the receptionist was kind of the problem.")).not.toContain("staff:positive");
    expect(read("It was kind of Sarah to fit me in on a Sunday.")).toContain("staff:positive");
  });

  it("read 'on top of' an amount or a thing as an addition, and 'on top of things' as praise", () => {
    expect(read("The x-rays were billed on top of the exam.")).not.toContain("billing:positive");
    expect(read("My neck is stiff, and on top of that I get headaches.")).toEqual(["pain-relief:neutral"]);
    expect(read("Dr. Amy is on top of things.")).toEqual(["care:positive"]);
    expect(read("The front desk is always on top of it.")).toEqual(["staff:positive"]);
    expect(read("They stay on top of my scheduling.")).toEqual(["scheduling:positive"]);
    expect(read("X-rays are $40, which is on top of the visit fee.")).not.toContain("billing:positive");
  });

  it("read the dry cleaner as a shop, no praise of cleanliness", () => {
    expect(read("Parking is behind the dry cleaners.")).toEqual(["location:neutral"]);
  });

  it("read 'late' right before a fee or a time as a kind of it, and lateness still as a complaint", () => {
    expect(read("My insurance sent a late payment notice.")).toEqual(["billing:neutral"]);
    expect(read("They have late hours on Wednesdays.")).toEqual(["scheduling:neutral"]);
    expect(read("I took a late appointment after work.")).toEqual(["scheduling:neutral"]);
    expect(read("The doctor showed up late.")).toEqual(["care:negative"]);
  });
});

describe("lie down", () => {
  it("is the patient's place on the table when told to, and a need of the body when needed or able", () => {
    expect(read("He told me to lie down and started on my shoulder.")).toEqual(["care:neutral"]);
    expect(read('No questions at all, just "lie down" and a crack.')).toEqual(["care:neutral"]);
    expect(read("These days I rarely need to lie down after a shift.")).toEqual(["pain-relief:positive"]);
    expect(read("I had to lie down for two days after the first session.")).toContain("pain-relief:negative");
    expect(read("Three days after the visit I'm still lying down most of the day.")).toEqual(["pain-relief:negative"]);
    expect(read("I spent all weekend lying down after my adjustment.")).toContain("pain-relief:neutral");
    expect(read("Since the adjustment I have trouble lying down at night.")).toEqual(["pain-relief:negative"]);
    expect(read("I struggle to lie down.")).toEqual(["pain-relief:negative"]);
  });
});

describe("benefits of a plan", () => {
  it("are what the insurance covers, no praise of the bill", () => {
    expect(read("The receptionist went over my insurance benefits with me.")).not.toContain("billing:positive");
    expect(read("I asked about my benefits at check-in.")).not.toContain("billing:positive");
  });
});

describe("tools of the trade", () => {
  it("are no violence or fall, and a plain manner or a room's incense no verdict", () => {
    expect(read("She used the activator gun on my neck.")).toEqual(["care:neutral"]);
    expect(read("The table has drop sections.")).toEqual(["facility:neutral"]);
    expect(read("Dr. Lee is very matter of fact.")).toEqual(["care:neutral"]);
    expect(read("The room smelled of incense.")).toEqual(["facility:neutral"]);
    // The neutral "incense" finds "incensed" by its lemma: anger still complains.
    expect(read("I was incensed at how the front desk spoke to me.")).toEqual(["staff:negative"]);
  });
});
