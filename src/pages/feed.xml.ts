import type { APIRoute } from "astro";
import { renderAtomFeed } from "../feeds/atom.ts";
import { siteData } from "../site/site-data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const { dataset, urls, changes } = await siteData();
  return new Response(renderAtomFeed(dataset.business, dataset.reviews, urls, changes), {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8" },
  });
};
