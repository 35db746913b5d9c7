import type { APIRoute } from "astro";
import { buildOpenApi } from "../api/openapi.ts";
import { siteData } from "../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { dataset, urls } = await siteData();
  const { name, url, email } = dataset.business;
  const contact = { name, url, ...(email ? { email } : {}) };
  return new Response(`${JSON.stringify(buildOpenApi({ urls, contact, dataset }), null, 2)}\n`, {
    headers: { "Content-Type": "application/json" },
  });
};
