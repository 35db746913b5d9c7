import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildRecords } from "../../../src/content/dataset.ts";
import { createMatcher } from "../../../src/content/mentions.ts";
import { loadContent } from "../../../src/io/content-dir.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");

/** Short names are the risky ones: each is a prefix, suffix or infix of common words. */
const people = createMatcher([
  { id: "anika-patel", name: "Dr. Anika Patel", aliases: ["Dr. Patel", "Patel"] },
  { id: "marcus-bell", name: "Dr. Marcus Bell", aliases: ["Dr. Bell", "Bell"] },
  { id: "tom-lindqvist", name: "Tom Lindqvist", aliases: ["Tom"] },
  { id: "jose-nunez", name: "José Núñez", aliases: ["José"] },
]);
const services = createMatcher([
  { id: "massage-therapy", name: "Massage therapy", aliases: ["deep tissue"] },
  { id: "pediatric-chiropractic", name: "Pediatric chiropractic", aliases: ["children's chiropractic"] },
]);

describe("createMatcher", () => {
  it("finds names and aliases whatever their case", () => {
    expect(people.detect("DR. PATEL fixed my neck")).toEqual(["anika-patel"]);
    expect(people.detect("tom was great")).toEqual(["tom-lindqvist"]);
    expect(people.detect("Saw dr. anika patel, then Marcus BELL")).toEqual(["anika-patel", "marcus-bell"]);
  });

  it("matches at word boundaries next to punctuation and possessives", () => {
    expect(people.detect("Thanks, Tom!")).toEqual(["tom-lindqvist"]);
    expect(people.detect("(Bell) was on leave")).toEqual(["marcus-bell"]);
    expect(people.detect("Patel's table")).toEqual(["anika-patel"]);
    expect(people.detect("Tom’s exercises")).toEqual(["tom-lindqvist"]);
  });

  it.each([
    "See you tomorrow",
    "great customer service",
    "atom bomb of a headache",
    "Tomas took my insurance card",
    "I live in Bellevue",
    "the doorbell kept ringing",
    "bellhop, bells and belly",
    "my patella hurts",
    "Patelli's pizza next door",
  ])("does not match a name inside another word: %s", (text) => {
    expect(people.detect(text)).toEqual([]);
  });

  it("treats letters of any script as part of a word", () => {
    expect(people.detect("José was kind")).toEqual(["jose-nunez"]);
    expect(people.detect("JOSÉ was kind")).toEqual(["jose-nunez"]);
    expect(people.detect("Joséphine was kind")).toEqual([]);
  });

  it("matches multi-word names across any run of whitespace, including line breaks", () => {
    expect(people.detect("Dr.   Anika\nPatel")).toEqual(["anika-patel"]);
    expect(services.detect("a deep\ttissue session")).toEqual(["massage-therapy"]);
  });

  it("takes the punctuation in a name literally", () => {
    const drOnly = createMatcher([{ id: "marcus-bell", name: "Dr. Bell", aliases: [] }]);
    expect(drOnly.detect("Dr. Bell")).toEqual(["marcus-bell"]);
    expect(drOnly.detect("Drs Bell and Smith")).toEqual([]);
  });

  it("matches straight and typographic apostrophes alike", () => {
    expect(services.detect("the children’s chiropractic room")).toEqual(["pediatric-chiropractic"]);
    expect(services.detect("the children's chiropractic room")).toEqual(["pediatric-chiropractic"]);
  });

  it("returns each id once, in catalogue order", () => {
    expect(people.detect("Tom, then Dr. Patel, then Patel again, then Tom")).toEqual(["anika-patel", "tom-lindqvist"]);
  });
});

describe("mentions in published records", () => {
  it("are the explicit ids plus those named in the title or text, not in the owner's reply", async () => {
    const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
    const byId = new Map(buildRecords(content, "https://reviews.example").map((r) => [r.id, r]));
    const mentions = (id: string) => {
      const r = byId.get(id);
      return r && { technicians: r.technicians, services: r.services, service_areas: r.service_areas };
    };
    // Explicit ids only; the text names none of them.
    expect(mentions("2024-09-03-priya-s")).toEqual({
      technicians: ["jenna-okafor"],
      services: ["massage-therapy"],
      service_areas: ["tigard"],
    });
    // "tomorrow", "doorbell" and "customer" in the text; Dr. Anika Patel only in the reply.
    expect(mentions("2024-11-21-mike")).toEqual({ technicians: [], services: [], service_areas: [] });
    // "Lake   Oswego" spaced out in the text.
    expect(mentions("2025-02-06-rt")).toEqual({
      technicians: ["jenna-okafor"],
      services: ["massage-therapy"],
      service_areas: ["lake-oswego"],
    });
    // "Dr. Bell" is a mention, "Bellevue" is not a place in the catalogue.
    expect(mentions("2025-01-14-heather-w")).toEqual({
      technicians: ["marcus-bell"],
      services: ["sports-injury"],
      service_areas: [],
    });
    expect(mentions("2024-05-17-greg-h")).toEqual({
      technicians: ["tom-lindqvist"],
      services: ["corrective-exercise", "x-ray"],
      service_areas: [],
    });
  });
});
