import { createAnnotator } from "./src/insights/annotate.ts";
import { explainReview } from "./src/insights/explain.ts";
import { createAnalyzer } from "./src/insights/nlp.ts";
import { loadContent } from "./src/io/content-dir.ts";
import { loadInsightsContent } from "./src/io/insights-dir.ts";
const content = await loadContent("content", { now: new Date("2100-01-01") });
const ins = await loadInsightsContent("content", content.reviews.map((r) => r.id));
const an = createAnnotator(ins, content.business, createAnalyzer());
for (const t of process.argv.slice(2)) console.log(explainReview(an, ins.aspects, { id: "x", title: null, text: t, rating: 3, technicians: [], services: [], service_areas: [] }).slice(1, -2).join("\n"));
