import type { APIRoute } from "astro";
import { buildOpenApi } from "../lib/openapi.ts";
import { siteData } from "../lib/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { urls } = await siteData();
  return new Response(`${JSON.stringify(buildOpenApi(urls), null, 2)}\n`, {
    headers: { "Content-Type": "application/json" },
  });
};
