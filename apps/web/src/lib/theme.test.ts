import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "@mutua/domain";
import { applyTheme } from "./theme";

describe("applyTheme", () => {
  afterEach(() => {
    document.head.innerHTML = "";
    document.documentElement.removeAttribute("style");
  });

  it("sets the theme's custom properties, a $name meaning another property", () => {
    applyTheme({ ...DEFAULT_CONFIG, theme: { "color-2": "#aa0000", "default-color": "$color-2" } });
    const root = document.documentElement.style;
    expect(root.getPropertyValue("--color-2")).toBe("#aa0000");
    expect(root.getPropertyValue("--default-color")).toBe("var(--color-2)");
  });

  it("keeps the association's css the page's last sheet when a screen's own styles load after it", async () => {
    applyTheme({ ...DEFAULT_CONFIG, css: ".carto-frame { border: 3px solid red; }" });
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/assets/CartoScreen.css";
    document.head.appendChild(link);
    await new Promise((r) => setTimeout(r, 0)); // mutation observers run after the current task's microtasks
    expect(document.head.lastElementChild).toBeInstanceOf(HTMLStyleElement);
    expect((document.head.lastElementChild as HTMLStyleElement).dataset.source).toBe("config.css");
    expect(document.head.querySelectorAll("style[data-source='config.css']")).toHaveLength(1);
  });
});
