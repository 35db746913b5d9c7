import type { APIRoute } from "astro";
import { siteData } from "../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { dataset } = await siteData();
  return new Response(`${JSON.stringify(dataset, null, 2)}\n`, { headers: { "Content-Type": "application/json" } });
};
