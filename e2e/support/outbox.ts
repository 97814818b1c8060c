import fs from "node:fs";
import path from "node:path";
import type { RunningServer } from "./server";

/**
 * The text of the newest mail to `to` in a server's outbox (where mail goes without SMTP_URL),
 * waiting for it to be written (the server sends it after answering).
 */
export async function newestMailTo(server: RunningServer, to: string, timeoutMs = 10_000): Promise<string> {
  const dir = path.join(server.dataDir, "outbox");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      .sort()
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .filter((eml) => eml.toLowerCase().includes(`\r\nto: ${to.toLowerCase()}\r\n`));
    if (mails.length > 0) return mails.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${dir}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens the sign-up's confirmation link mailed to `to` on `page` and confirms, as the member does. */
export async function confirmAddress(page: import("playwright-core").Page, server: RunningServer, to: string): Promise<void> {
  const token = /\/confirm-email\?token=([\w-]+)/.exec(await newestMailTo(server, to))![1];
  await page.goto(`${server.url}/confirm-email?token=${token}`);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await page.getByText("Your e-mail address is confirmed. You can sign in now.").waitFor();
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await page.waitForURL(`${server.url}/`);
}
