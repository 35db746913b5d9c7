import type { APIRoute } from "astro";
import { renderInsightsJson } from "../lib/insights/publish.ts";
import { siteInsights } from "../lib/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(renderInsightsJson(await siteInsights()), { headers: { "Content-Type": "application/json" } });
