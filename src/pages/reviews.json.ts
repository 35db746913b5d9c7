import type { APIRoute } from "astro";
import { datasetJsonStream } from "../site/dataset-json.ts";
import { siteData } from "../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { dataset } = await siteData();
  return new Response(datasetJsonStream(dataset), { headers: { "Content-Type": "application/json" } });
};
