import { startApp } from "./test/helpers/app-server.ts";
import { launchChromium, runAxe, layoutProblems } from "./test/helpers/browser.ts";
const app = await startApp(process.argv[2], { env: { BASE_URL: process.argv[3], RATE_LIMIT_PER_MINUTE: "100000" } });
const b = await launchChromium("/usr/bin/chromium");
const page = await b.context.newPage();
for (const p of process.argv.slice(4)) {
  for (const w of [390, 1280]) {
    await page.setViewportSize({ width: w, height: 900 });
    const res = await page.goto(app.url + p);
    await page.evaluate(() => { for (const d of document.querySelectorAll("details")) d.open = true; });
    const v = await runAxe(page);
    const l = await layoutProblems(page, 12);
    console.log(res?.status(), p, w, v.length ? JSON.stringify(v).slice(0, 400) : "ok", JSON.stringify(l).slice(0, 200));
  }
}
await b.close(); await app.close();
