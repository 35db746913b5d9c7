import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Words of the domain lexicon (and what a clause without an aspect of its own borrows) (content/insights/sentiment.yaml, aspects.yaml) that wink's general
 * one reads otherwise or not at all, in 3-star reviews so the rating cannot decide; sentences
 * written for this test.
 */
const read = await rulesReading();

describe("price compared", () => {
  it("reads cheaper and cheapest as praise of the price, and their negation as a complaint", () => {
    expect(read("Cheapest chiropractor in the county.")).toEqual(["billing:positive"]);
    expect(read("The ten-visit plan came out cheaper than my physio.")).toEqual(["billing:positive"]);
    expect(read("They are not the cheapest around.")).toEqual(["billing:negative"]);
  });
});

describe("a bill that matched what was quoted", () => {
  it("reads a bill that matched as praise of the price, and one that did not as a complaint", () => {
    expect(read("My invoice matched the written estimate exactly.")).toEqual(["billing:positive"]);
    expect(read("the charge on my card doesnt match the price on their website")).toEqual(["billing:negative"]);
    expect(read("The copay they took never matched what my plan says.")).toEqual(["billing:negative"]);
  });
  it("reads a match as a noun, a game or a fit, as no opinion", () => {
    expect(read("I got whiplash at a rugby match.")).toEqual(["pain-relief:neutral"]);
    expect(read("The receipt never matched what I paid.")).toEqual(["billing:negative"]);
  });
  it("reads symptoms that match a cause as no opinion", () => {
    expect(read("The pain in my leg matches the nerve path he described.")).toContain("pain-relief:neutral");
    expect(read("My symptoms matched a pinched nerve.")).toEqual(["pain-relief:neutral"]);
  });
});

describe("conditions by their common names", () => {
  it("names pain relief by a named condition, neutral until the clause says how it went", () => {
    expect(read("My frozen shoulder is why I came in.")).toEqual(["pain-relief:neutral"]);
    expect(read("My tennis elbow is finally gone.")).toEqual(["pain-relief:positive"]);
    expect(read("I still get pins and needles in my left hand.")).toEqual(["pain-relief:negative"]);
    expect(read("My AC joint separation is healing well.")).toEqual(["pain-relief:positive"]);
  });

  it("reads the kneecap as the knee: a part of the body named only when the clause says how it is", () => {
    expect(read("My left kneecap finally sits where it should.")).toEqual(["pain-relief:positive"]);
    expect(read("My kneecap still grinds when I squat.")).toEqual(["pain-relief:negative"]);
    expect(read("I mentioned my kneecap at the first visit.")).toEqual([]);
  });

  it("reads sessions that start or run late as scheduling", () => {
    expect(read("Sessions always start late.")).toEqual(["scheduling:negative"]);
    expect(read("It ran late again.")).toEqual(["scheduling:negative"]);
  });
});

describe("out of pocket", () => {
  it("reads paying out of pocket as a fact of paying, money lost as a complaint, and never paying as praise", () => {
    expect(read("I pay $60 a session out of pocket.")).toEqual(["billing:neutral"]);
    expect(read("I was out of pocket $200 after they lost my claim.")).toEqual(["billing:negative"]);
    expect(read("I paid my copay and was still out of pocket for the x-rays.")).toEqual(["billing:negative"]);
    expect(read("I never paid a dime out of pocket.")).toEqual(["billing:positive"]);
  });
});

describe("how the patient pays", () => {
  it("reads paying upfront as when, no praise, and being upfront about the cost still as praise", () => {
    expect(read("The first visit is paid upfront.")).toEqual(["billing:neutral"]);
    expect(read("I paid for the whole package up front.")).toEqual(["billing:neutral"]);
    expect(read("They were upfront about the cost of each visit.")).toEqual(["billing:positive"]);
    expect(read("After I paid they were not upfront about the extra fees.")).toEqual(["billing:negative"]);
    expect(read("Payment options were all discussed upfront.")).toEqual(["billing:positive"]);
    expect(read("When it came time to pay the receptionist was very upfront.")).toEqual(["staff:positive"]);
    expect(read("Payment is always upfront.")).toEqual(["billing:neutral"]);
  });

  it("reads coverage denied as the reason for paying another way as a fact, and denied alone still as a complaint", () => {
    expect(read("My plan didn't cover the massage, so I paid for it myself.")).toEqual(["billing:neutral"]);
    expect(read("I pay cash for the x-rays since they are not covered.")).toEqual(["billing:neutral"]);
    expect(read("My insurance didn't cover the x-rays.")).toEqual(["billing:negative"]);
    expect(read("They accept my insurance so I only pay a small copay.")).toEqual(["billing:positive"]);
    expect(read("They don't take my insurance, so I pay cash.")).toEqual(["billing:neutral"]);
    expect(read("The ultrasound was not covered and I got a bill for $180.")).toEqual(["billing:negative"]);
    expect(read("I paid as much as before and insurance didn't cover a thing.")).toEqual(["billing:negative"]);
    expect(read("I had to file an appeal because they said the visit wasn't covered.")).toEqual(["billing:negative"]);
    expect(read("My claim came back because the adjustment was not covered.")).toEqual(["billing:negative"]);
    // The patient's own claim is how they are paid back, however it is joined to the denial.
    expect(read("They don't bill insurance, you pay at the desk and file the claim on your own.")).toEqual([
      "billing:neutral",
    ]);
    expect(read("Medicare isn't accepted, I send my claims in myself.")).toEqual(["billing:neutral"]);
    expect(read("They don't bill insurance.")).toEqual(["billing:negative"]);
    expect(read("The office never submitted my claim, so insurance didn't cover the visit.")).toEqual([
      "billing:negative",
    ]);
  });
});

describe("picking up", () => {
  it("reads a phone picked up as the desk answering, and a cost picked up as a plain fact of billing", () => {
    expect(read("Nobody at the front desk ever picks up.")).toEqual(["staff:negative"]);
    expect(read("My insurance picks up half the cost of each visit.")).toEqual(["billing:neutral"]);
    expect(read("The ache in my neck always picks up by the evening.")).toEqual(["pain-relief:neutral"]);
  });
});

describe("an apology said", () => {
  it("reads sorry said to the patient as courtesy, and nobody saying it as a complaint", () => {
    expect(read("The receptionist came over twice to say sorry.")).toEqual(["staff:positive"]);
    expect(read("Nobody at the front desk said sorry.")).toEqual(["staff:negative"]);
    // The patient's own apology is no courtesy of the office.
    expect(read("I had to say sorry to the receptionist for forgetting my card.")).toEqual(["staff:neutral"]);
  });
});

describe("care taken over a deed", () => {
  it("reads someone making sure or taking care to do something as praise of them, not the patient's own care", () => {
    expect(read("Priya at the front made sure I had a blanket.")).toEqual(["staff:positive"]);
    expect(read("The massage therapist took care to check the pressure on my calves.")).toEqual(["staff:positive"]);
    expect(read("I made sure to bring my old X-rays to the first appointment.")).toEqual(["scheduling:neutral"]);
    expect(read("My husband made sure I got there on time.")).not.toContain("location:positive");
  });
});

describe("a time found for the patient", () => {
  it("reads finding someone a slot as praise of the booking, and not finding one as a complaint", () => {
    expect(read("When I rang on a Friday, the office found me a time that evening.")).toEqual(["scheduling:positive"]);
    expect(read("Twice they could not find me an opening within a month.")).toEqual(["scheduling:negative"]);
    expect(read("I had to beg the desk to find me an appointment this month.")).not.toContain("scheduling:positive");
    expect(read("The desk said they would find me a slot on Monday.")).not.toContain("scheduling:positive");
    // The limit of what was found: the wait after it speaks.
    expect(read("The earliest they could find me an opening was three weeks away.")).toEqual(["scheduling:negative"]);
  });
});

describe("calls and apologies nobody made", () => {
  it("reads them as a complaint about the front desk", () => {
    expect(read("Nobody picked up the phone all morning.")).toEqual(["staff:negative"]);
    expect(read("They moved my slot and nobody called to tell me.")).toEqual(["staff:negative"]);
    expect(read("No one apologized when my file went missing.")).toEqual(["staff:negative"]);
  });
});

describe("the office's people by their task", () => {
  it("names the staff by 'whoever' and what they do there", () => {
    expect(read("Whoever ran the front office that week was rude.")).toEqual(["staff:negative"]);
    expect(read("Whoever handles the paperwork is lovely.")).toEqual(["staff:positive"]);
    expect(read("Whoever manages this place is hopeless.")).toEqual(["staff:negative"]);
  });
});

describe("an insurer's statement", () => {
  it("names billing by an EOB or an itemized bill", () => {
    expect(read("My EOB was clear and matched what they quoted.")).toEqual(["billing:positive"]);
    expect(read("The itemized bill they mailed me was a mess.")).toEqual(["billing:negative"]);
    expect(read("The EOB lists two adjustments.")).toEqual(["billing:neutral"]);
  });
});

describe("what divides the rooms and what a patient sits on", () => {
  it("names the facility by its curtains, cubicles, seats and television", () => {
    expect(read("Every cubicle is spotless.")).toEqual(["facility:positive"]);
    expect(read("The curtains between the tables are grubby.")).toEqual(["facility:negative"]);
    expect(read("The television in the corner was blaring all morning.")).toEqual(["facility:negative"]);
    expect(read("The seats out front are comfy.")).toEqual(["facility:positive"]);
  });
});

describe("the room's temperature", () => {
  it("reads a chilly room as a complaint about the facility", () => {
    expect(read("The treatment room was chilly all winter.")).toEqual(["facility:negative"]);
  });
});

describe("a clause that waves away the complaint before it", () => {
  it("borrows none of its aspects: its thanks are no praise of the room", () => {
    expect(read("The waiting room was kinda chilly but whatever, thank you!!")).toEqual(["facility:negative"]);
    expect(read("The waiting room was dusty, but oh well, thanks.")).toEqual(["facility:negative"]);
    // A contrast that says something of the same aspect still borrows it.
    expect(read("The waiting room was dusty, but so pleasant.")).toEqual(["facility:neutral"]);
  });

  it("borrows them when it goes on to say something of them, as the contrast without the wave does", () => {
    const plain = read("The front desk lost my forms but they sorted it quickly and were lovely.");
    expect(plain).toEqual(["staff:positive"]);
    expect(read("The front desk lost my forms but anyway they sorted it quickly and were lovely.")).toEqual(plain);
    expect(read("The front desk lost my forms, but whatever, they were lovely about it.")).toEqual(
      read("The front desk lost my forms, but they were lovely about it."),
    );
  });
});

describe("the patient said to be better, naming no condition", () => {
  it("reads a share of recovery or a feeling of it as a result", () => {
    expect(read("I'm 90% better.")).toEqual(["pain-relief:positive"]);
    expect(read("Three weeks in and I am eighty percent better.")).toEqual(["pain-relief:positive"]);
    expect(read("Feeling better already.")).toEqual(["pain-relief:positive"]);
  });
});

describe("words a clinic's reviews use in their own sense", () => {
  it("reads an apology as good service, and none as a complaint (wink reads 'apology' as a sad word)", () => {
    expect(read("The receptionist apologized and offered me tea.")).toEqual(["staff:positive"]);
    expect(read("The front desk gave not one apology.")).toEqual(["staff:negative"]);
    // The verb in its base form and -ing too: wink's own value for it would flip to praise.
    expect(read("The front desk did not apologize at all.")).toEqual(["staff:negative"]);
    expect(read("The girl at check-in kept apologising to everyone in the queue.")).toEqual(["staff:positive"]);
  });

  it("reads 'legit' as praise, a clinic in the middle of nowhere as badly placed, and names the air conditioning", () => {
    expect(read("The doctor is legit.")).toEqual(["care:positive"]);
    expect(read("Lovely people, but it's in the middle of nowhere.")).toContain("location:negative");
    expect(read("The A/C was broken all August.")).toEqual(["facility:negative"]);
    expect(read("The AC in room two was broken again.")).toEqual(["facility:negative"]);
    expect(read("Someone finally fixed the thermostat, so the rooms are warm now.")).toEqual(["facility:positive"]);
  });

  it("reads a clinic out of the way as badly placed, and going out of the way to help as no place at all", () => {
    expect(read("It's a bit out of the way.")).toEqual(["location:negative"]);
    expect(read("The staff went out of the way to fit me in.")).toEqual(read("The staff fit me in."));
    expect(read("Dr. Kim went out of the way to help me.")).toEqual(["care:positive"]);
  });
});

describe("a question asking why", () => {
  it("reads 'why can I only…', 'why is it always…' as a complaint, and 'that's why' as none", () => {
    expect(read("Why can I only cancel by phone?")).toEqual(["scheduling:negative"]);
    expect(read("Why is it always so hot in the treatment rooms?")).toEqual(["facility:negative"]);
    expect(read("That's why I keep coming back to the front desk team.")).not.toContain("staff:negative");
  });
});

describe("a star taken off", () => {
  it("reads the reason a star was docked as a complaint, never the star as praise", () => {
    expect(read("Minus one star because the cost adds up quickly.")).toEqual(["billing:negative"]);
    expect(read("Knocked off a star for the decor.")).toEqual(["facility:negative"]);
    expect(read("One star off for the parking.")).toEqual(["location:negative"]);
  });
});

describe("words of results, prices and people", () => {
  it("reads pain that went down or dropped as a result, and a ball dropped as a complaint", () => {
    expect(read("My low back pain is way down.")).toEqual(["pain-relief:positive"]);
    expect(read("My headaches dropped from four a week to one.")).toEqual(["pain-relief:positive"]);
    expect(read("The front desk dropped the ball on my referral.")).toEqual(["staff:negative"]);
  });

  it("reads a price that can't be beat, a sweetheart at the desk and booking whenever wanted as praise", () => {
    expect(read("The price can't be beat.")).toEqual(["billing:positive"]);
    expect(read("Ashley at reception is a sweetheart.")).toEqual(["staff:positive"]);
    expect(read("The front desk was condescending about my questions.")).toEqual(["staff:negative"]);
    expect(read("I got appointments whenever I wanted.")).toEqual(["scheduling:positive"]);
  });
});

describe("insurance taken or not", () => {
  it("reads insurance not taken, not billed or not afforded as a complaint about the price, and taken as praise", () => {
    expect(read("They don't take my insurance.")).toEqual(["billing:negative"]);
    expect(read("No insurance accepted.")).toEqual(["billing:negative"]);
    expect(read("Can't afford to keep going.")).toEqual(["billing:negative"]);
    expect(read("They take insurance, which is rare around here.")).toEqual(["billing:positive"]);
  });
});

describe("words wink reads against a review's sense", () => {
  it("reads 'rock hard' as a complaint, and a table that lowers as none", () => {
    expect(read("The waiting room chairs are rock hard.")).toEqual(["facility:negative"]);
    expect(read("The treatment tables lower nearly to the floor.")).toContain("facility:neutral");
  });

  it("reads a thing falling apart as a complaint, and 'apart from' as no praise", () => {
    expect(read("The couch in the lobby is falling apart.")).toEqual(["facility:negative"]);
    expect(read("The waiting room chair came apart under me.")).toEqual(["facility:negative"]);
    expect(read("Apart from the wait, there's nothing to report.")).toEqual(["scheduling:neutral"]);
    expect(read("The massage is charged apart from the adjustment.")).not.toContain("billing:positive");
  });

  it("reads the lowest price or setting as no complaint", () => {
    expect(read("Their cash rate is the lowest I've seen in this city.")).not.toContain("billing:negative");
    expect(read("She set the table to its lowest height for me.")).not.toContain("facility:negative");
    expect(read("Cheapest and lowest-stress visit I've had, but the rooms are filthy.")).toContain("facility:negative");
  });

  it("reads 'good luck' wished on the reader as a warning, and a good luck card as none", () => {
    expect(read("Street parking only, good luck after 5.")).toEqual(["location:negative"]);
    expect(read("Fair prices, but good luck getting an appointment.")).toContain("scheduling:negative");
    expect(read("The front desk gave my daughter a good luck card.")).toEqual(["staff:neutral"]);
  });
});

describe("a condition that fades", () => {
  it("reads fading, letting up and dying down as a result", () => {
    expect(read("My tension headaches have faded to almost nothing.")).toEqual(["pain-relief:positive"]);
    expect(read("The pain in my neck died down after two visits.")).toEqual(["pain-relief:positive"]);
    expect(read("The sciatica let up within a week.")).toEqual(["pain-relief:positive"]);
  });
});

describe("what a patient could not do to be seen or heard", () => {
  it("reads an appointment that could not be booked, or a desk hard to reach, as a complaint", () => {
    expect(read("I can't book anything before 6pm.")).toEqual(["scheduling:negative"]);
    expect(read("Hard to reach anyone on the phone.")).toEqual(["staff:negative"]);
    expect(read("Difficult to book an appointment online.")).toEqual(["scheduling:negative"]);
  });
});

describe("paying", () => {
  it("is a fact of the visit, not a complaint (wink reads 'pay' as one)", () => {
    expect(read("I pay cash at the desk.")).toEqual(["billing:neutral"]);
    expect(read("I paid by card and they emailed a receipt.")).toEqual(["billing:neutral"]);
  });
});

describe("the practice closed, and a patient who feels worse", () => {
  it("names the schedule when the practice is closed, and the result when the patient feels worse", () => {
    expect(read("They closed early, which was a nightmare.")).toEqual(["scheduling:negative"]);
    expect(read("They're closed on Wednesdays.")).toEqual(["scheduling:neutral"]);
    expect(read("I feel worse than when I started.")).toEqual(["pain-relief:negative"]);
  });
});

describe("a condition that would not move, or that the treatment left behind", () => {
  it("reads 'didn't budge' and 'left me with' a condition as a poor result", () => {
    expect(read("My neck pain didn't budge in six visits.")).toEqual(["pain-relief:negative"]);
    expect(read("The sciatica hasn't budged.")).toEqual(["pain-relief:negative"]);
    expect(read("Too much force on my neck, which left me with a three day headache.")).toEqual([
      "pain-relief:negative",
    ]);
  });
});

describe("what a patient asked for", () => {
  it("reads a request done anyway, or left without an answer, as a complaint", () => {
    expect(read("I asked him to skip the neck crack and he did it anyway.")).toEqual(["care:negative"]);
    expect(read("Left two voicemails, no answer.")).toEqual(["staff:negative"]);
    expect(read("The new ones at the front desk are still learning.")).toEqual(["staff:negative"]);
  });
});

describe("a fee waived", () => {
  it("praises the bill when it was waived, complains when it was not, and tells nothing when only asked for", () => {
    expect(read("They waived my copay that day.")).toEqual(["billing:positive"]);
    expect(read("They never waived the fee.")).toEqual(["billing:negative"]);
    expect(read("I asked them to waive the fee.")).toEqual(["billing:neutral"]);
    expect(read("They said the fee would be waived.")).toEqual(["billing:neutral"]);
    expect(read("I was supposed to be refunded for the missed visit.")).not.toContain("billing:positive");
  });
});

describe("a discount", () => {
  it("is a lower price, and none a complaint (wink reads 'discounted' as a loss)", () => {
    expect(read("Kids' visits are discounted.")).toEqual(["billing:positive"]);
    expect(read("Kids' visits aren't discounted.")).toEqual(["billing:negative"]);
  });
});

describe("words of a practice's price, time and rooms", () => {
  it("names punctuality, the toilet, a cent and a caller on hold, and reads robbery, grubby rooms and a strong suit", () => {
    expect(read("Punctuality is not their strong suit.")).toEqual(["scheduling:negative"]);
    expect(read("Highway robbery, pure and simple.")).toEqual(["billing:negative"]);
    expect(read("Worth every single cent.")).toEqual(["billing:positive"]);
    expect(read("Overpriced and the rooms are grubby.")).toEqual(["billing:negative", "facility:negative"]);
    expect(read("The toilet was out of order again.")).toContain("facility:negative");
    expect(read("I was on hold.")).toEqual(["staff:neutral"]);
  });
});

describe("the people and forms of the front", () => {
  it("names the front desk by who sits there, the massage staff by a plain name, and the intake form", () => {
    expect(read("The man at the front was short with me.")).toEqual(["staff:negative"]);
    expect(read("The massage lady was lovely.")).toEqual(["staff:positive"]);
    expect(read("My intake form was lost twice.")).toEqual(["staff:negative"]);
  });
  it("names the front desk and staff by an intern", () => {
    expect(read("The intern who took my history was lovely.")).toEqual(["staff:positive"]);
    expect(read("There are usually two interns around on Thursdays.")).toEqual(["staff:neutral"]);
  });
});

describe("a condition that did not move", () => {
  it("is a poor result, told with or without an apostrophe", () => {
    expect(read("The tingling in my toes has stayed put since March.")).toEqual(["pain-relief:negative"]);
    expect(read("My hip pain stayed the same through ten visits.")).toEqual(["pain-relief:negative"]);
    expect(read("my shoulder pain hasnt changed one bit")).toEqual(["pain-relief:negative"]);
    expect(read("Honestly the stiffness has not changed.")).toEqual(["pain-relief:negative"]);
  });

  it("is told by 'stayed' or 'remained', unless someone stayed or the condition stayed away", () => {
    expect(read("My wrist stayed stiff all through the course.")).toEqual(["pain-relief:negative"]);
    expect(read("The knot under my shoulder blade remained.")).toEqual(["pain-relief:negative"]);
    expect(read("The ache in my heel has stayed away since May.")).toEqual(["pain-relief:positive"]);
    expect(read("Dr. Amy stayed after hours to look at my sore knee.")).not.toContain("pain-relief:negative");
    expect(read("We stayed in the lobby with my stiff neck.")).not.toContain("pain-relief:negative");
  });
});

describe("a complaint shrugged off, listening and explaining", () => {
  it("reads a shrug at a complaint and a practitioner not listening as blame, listening to the patient as praise", () => {
    expect(read("When I said my neck hurt, Dr. Lane shrugged it off.")).toEqual(["care:negative"]);
    expect(read("It felt like the chiropractor wasn't listening.")).toEqual(["care:negative"]);
    expect(read("The chiropractor was actually listening to me.")).toEqual(["care:positive"]);
    expect(read("The chiropractor was listening to the radio.")).toEqual(["care:neutral"]);
    expect(read("Instead of listening to me, he kept talking about supplements.")).toEqual(["care:negative"]);
    expect(read("Instead of listening to music, I chatted with the receptionist.")).not.toContain("care:negative");
    expect(read("I was not listening to my body for years.")).not.toContain("care:negative");
    expect(read("I didn't explain it well but she figured out what was wrong.")).not.toContain("care:negative");
    expect(read("the chiro doesnt explain much")).toEqual(["care:negative"]);
  });
});

describe("go", () => {
  it("is no praise alone, and telling others to come or not to is", () => {
    expect(read("Three of my calls to the office go unreturned.")).toEqual(["staff:negative"]);
    expect(read("I go to the front desk to pay after each visit.")).not.toContain("staff:positive");
    expect(read("Go see Dr. Lane, you won't regret it.")).toEqual(["care:positive"]);
    // Sent on to someone else, a referral: "go see a specialist".
    expect(read("The doctor told me to go see a specialist instead.")).toEqual(["care:neutral"]);
    expect(read("Do not go here, the billing office lies.")).not.toContain("billing:positive");
  });
});

describe("results told in a word, and a patient coming back", () => {
  it("reads recovery and pain that lifted as good results", () => {
    expect(read("Six weeks later I am fully recovered.")).toEqual(["pain-relief:positive"]);
    expect(read("The ache in my hip has lifted.")).toEqual(["pain-relief:positive"]);
  });
  it("reads a patient who keeps coming back as no returning pain", () => {
    expect(read("My knee feels much better, so we keep coming back.")).toEqual(["pain-relief:positive"]);
    expect(read("My knee pain keeps coming back.")).toEqual(["pain-relief:negative"]);
  });
  it("reads a score out of ten that fell as a good result", () => {
    expect(read("my neck went from 9/10 to maybe a 3")).toEqual(["pain-relief:positive"]);
    expect(read("my neck went from 3/10 to a 7")).toEqual(["pain-relief:negative"]);
  });
});

describe("a short wait counted from arrival", () => {
  it("is the booking's praise, whoever the clause names", () => {
    expect(read("The chiropractor had me on the table within five minutes of walking in.")).toContain(
      "scheduling:positive",
    );
    expect(read("Each session began within three minutes of my slot.")).toEqual(["scheduling:positive"]);
    expect(read("Dr. Lane calls within two days of each visit to check on my knee.")).not.toContain(
      "scheduling:positive",
    );
  });
});

describe("the premises", () => {
  it("are the facility's", () => {
    expect(read("Tidy premises and soft lighting.")).toEqual(["facility:positive"]);
    expect(read("The interior feels cramped and dated.")).toEqual(["facility:negative"]);
  });
});

describe("going", () => {
  it("reads going as no praise, and a warning not to go as a complaint", () => {
    expect(read("The receptionist is a different person depending on which day you go.")).toEqual(["staff:neutral"]);
    expect(read("Do not go here unless you like being rushed by the doctor.")).toEqual(["care:negative"]);
    expect(read("I don't go here as often as I should, the doctor is great.")).toEqual(["care:positive"]);
  });
});

describe("swearing", () => {
  it("vouches for what it says and judges nothing itself", () => {
    expect(read("I swear to god the receptionist was rolling her eyes at me.")).not.toContain("staff:positive");
  });
});

describe("carelessness told by what was done", () => {
  it("is a complaint", () => {
    expect(read("The receptionist misspelled my name on every receipt.")).toEqual(["staff:negative"]);
    expect(read("The massage therapist came in without knocking.")).toEqual(["staff:negative"]);
    // Said of the patient's body, "too tight" is the condition, no carelessness.
    expect(read("My lower back was way too tight to bend over before I started here.")).not.toContain(
      "pain-relief:negative",
    );
    expect(read("The table strap was too tight and it hurt.")).toContain("facility:negative");
  });
});

describe("a treatment that did not do anything", () => {
  it("is a poor result, not an absent symptom", () => {
    expect(read("The adjustment didn't do anything for my knee.")).toEqual(["pain-relief:negative"]);
    expect(read("Six visits in, and it hasn't done much for my neck.")).toEqual(["pain-relief:negative"]);
    expect(read("The adjustment didn't hurt my knee at all.")).toContain("pain-relief:positive");
  });
});

describe("a condition that feels as it did before", () => {
  it("did not move", () => {
    expect(read("Ten visits later my shoulder feels exactly like it did before.")).toEqual(["pain-relief:negative"]);
    expect(read("honestly nothing has changed with my sciatica")).toEqual(["pain-relief:negative"]);
  });
});

describe("moving with more ease", () => {
  it("reads a condition that moves more easily or freely as a good result, and more of it as a poor one", () => {
    expect(read("Two weeks in, my lower back bends more easily in the mornings.")).toEqual(["pain-relief:positive"]);
    expect(read("My shoulder rotates more freely when I reach for a shelf.")).toEqual(["pain-relief:positive"]);
    expect(read("There is more stiffness in my hip than before.")).toEqual(["pain-relief:negative"]);
    expect(read("Since the last session my migraines come on more easily.")).toEqual(["pain-relief:negative"]);
  });
});

describe("the practice on the patient's route, or far off it", () => {
  it("praises a practice on the way home or to work, and complains of a trek", () => {
    expect(read("Handily, they sit right on my way to work.")).toEqual(["location:positive"]);
    expect(read("The clinic is on the way home from my son's school.")).toContain("location:positive");
    expect(read("Honestly it's a trek from the north side.")).toEqual(["location:negative"]);
    expect(read("It is a haul for us but we keep going.")).toContain("location:negative");
    // A journey told in passing is neither: the patient on the way home, a trek abroad.
    expect(read("On my way home I had a headache.")).toEqual(["pain-relief:neutral"]);
    expect(read("I hurt my knee on a trek in Nepal last spring.")).toEqual(["pain-relief:neutral"]);
    expect(read("I was on my way home when my lower back locked up.")).not.toContain("location:positive");
    // The patient's own stop on the way is the practice on the route: most labelled text reads it so.
    expect(read("Easy to stop in on my way home from work.")).toContain("location:positive");
  });
});
