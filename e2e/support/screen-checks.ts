import fs from "node:fs";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";

/**
 * What a person paging through the app would notice, measured: the page scrolling sideways,
 * something cut off at the viewport's edge, a visible control covered by another one, a
 * placeholder cut short by its field. Only the
 * open menu, else the topmost modal dialog, is looked at when there is one (what they cover is
 * covered on purpose).
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  await motionSettled(page);
  return page.evaluate(() => {
    const problems: string[] = [];
    // Side-scrolling rows (the accounts' cards) are put back where the member left them afterwards.
    const sideways = [...document.querySelectorAll("*")].filter((el) => el.scrollLeft > 0).map((el) => [el, el.scrollLeft] as const);
    const root = document.documentElement;
    const width = root.clientWidth;
    const height = window.innerHeight;
    if (root.scrollWidth > width) problems.push(`page scrolls sideways: ${root.scrollWidth} > ${width}`);
    // The topmost modal holds the focus; a dialog opened from another (Authentication over Send money) covers it.
    const dialogs = [...document.querySelectorAll("dialog[open]")];
    // An open menu (a popover) is above everything, and what it covers is meant to be covered.
    const scope: ParentNode = document.querySelector(":popover-open") ?? document.activeElement?.closest("dialog[open]") ?? dialogs.at(-1) ?? document;
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].join(".")} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
    /** Inside a box clipped to nothing: the visually hidden texts read to screen readers only. */
    const clippedAway = (el: HTMLElement) => {
      for (let p: HTMLElement | null = el; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if ((s.clipPath !== "none" || s.clip !== "auto") && p.getBoundingClientRect().width <= 1) return true;
      }
      return false;
    };
    const visible = (el: HTMLElement) => {
      if (el.closest("[hidden], [inert]") || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || clippedAway(el)) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    /** Inside something that scrolls sideways on purpose (a table): it may extend, the page may not. */
    const inScroller = (el: HTMLElement) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (["auto", "scroll"].includes(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    /** A map's tiles and markers, which it lays out past its box and clips to it (its controls are checked). */
    const onMap = (el: HTMLElement) => el.closest(".leaflet-pane") !== null;
    for (const el of scope.querySelectorAll<HTMLElement>(scope === document ? "main *, nav *, header *" : "*")) {
      if (!visible(el) || inScroller(el) || onMap(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.right > width + 1) problems.push(`${describe(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`);
    }
    const controls = scope.querySelectorAll<HTMLElement>(
      "button, a[href], input:not([type=hidden]):not([type=file]), select, textarea, [role=menuitem], [role=tab]",
    );
    for (const el of controls) {
      if (!visible(el)) continue;
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || x > width || y < 0 || y > height) continue; // taller than the viewport, or in a clipped scroller
      const top = document.elementFromPoint(x, y);
      // A label wrapping its input, or the input's own parts, count as the control.
      if (!top || el.contains(top) || top.contains(el) || (el.id && top.closest(`label[for="${el.id}"]`))) continue;
      problems.push(`${describe(el)} is covered by ${describe(top)}`);
    }
    // A placeholder says what to type: cut, it says less (measured in its own font, inside the padding).
    const canvas = document.createElement("canvas").getContext("2d")!;
    for (const el of scope.querySelectorAll<HTMLInputElement>("input[placeholder]:placeholder-shown")) {
      if (!visible(el)) continue;
      const s = getComputedStyle(el);
      canvas.font = getComputedStyle(el, "::placeholder").font || s.font;
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const needed = canvas.measureText(el.placeholder).width;
      if (needed > room + 1) problems.push(`${describe(el)}'s placeholder "${el.placeholder}" needs ${Math.ceil(needed)} px, has ${Math.floor(room)}`);
    }
    window.scrollTo(0, 0);
    for (const d of document.querySelectorAll("dialog[open]")) d.scrollTop = 0;
    for (const el of document.querySelectorAll("*")) if (el.scrollLeft) el.scrollLeft = 0;
    for (const [el, left] of sideways) el.scrollLeft = left;
    return [...new Set(problems)].slice(0, 12);
  });
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
/** The rules whose outcome a colour scheme can change: the rest judge structure, names and roles. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * axe-core's WCAG 2.2 A/AA and best-practice rules on the page, or on the open dialogs only;
 * `colours` runs only the rules about colours (the same screen in its other colour scheme).
 * axe is put in the page once per document rather than at every check (a third of its time).
 */
/**
 * Waits for what is coming in (a dialog rising, a sheet sliding up) to be in place: measured or
 * judged half-way, a control would seem cut off or faded below its contrast. Endless animations
 * (a skeleton's pulse) are not waited for.
 */
export async function motionSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

export async function axeViolations(page: Page, opts: { colours?: boolean } = {}): Promise<string[]> {
  await motionSettled(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
      const dialogs = document.querySelectorAll("dialog[open]");
      const { violations } = await axe.run(dialogs.length ? dialogs : document, {
        runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return violations.map((v) => `${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
    },
    { tags: AXE_TAGS, rules: opts.colours ? COLOUR_RULES : null },
  );
}

/** Whether a field's placeholder is drawn whole in it, not cut at its edge (measured in its own font). */
export async function placeholderFits(field: Locator): Promise<boolean> {
  return field.evaluate((el: HTMLInputElement) => {
    const s = getComputedStyle(el);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    return context.measureText(el.placeholder).width <= el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  });
}
