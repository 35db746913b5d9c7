import type { APIRoute } from "astro";
import { renderJsonFeed } from "../../feeds/json-feed.ts";
import { siteData } from "../../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { dataset, urls, changes } = await siteData();
  return new Response(renderJsonFeed(dataset.business, dataset.reviews, urls, changes), {
    headers: { "Content-Type": "application/json" },
  });
};
