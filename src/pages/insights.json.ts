import type { APIRoute } from "astro";
import { renderInsightsJson } from "../insights/publish.ts";
import { siteInsights } from "../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(renderInsightsJson(await siteInsights()), { headers: { "Content-Type": "application/json" } });
