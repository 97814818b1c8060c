import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "@testing-library/react";
import * as icons from "./icons";
import { Icon, ScanIcon, type IconNode } from "./icons";

afterEach(cleanup);

const nodes = Object.entries(icons).filter((e): e is [string, IconNode] => Array.isArray(e[1]));

describe("Icon", () => {
  it("draws the library's shapes, attribute for attribute, in a decorative svg", () => {
    const { container } = render(<Icon node={ScanIcon} className="spin" />);
    const svg = container.querySelector("svg")!;
    expect(svg.getAttribute("aria-hidden")).toBe("true");
    expect(svg.getAttribute("class")).toBe("icon spin");
    expect(svg.getAttribute("viewBox")).toBe("0 0 24 24");
    expect(svg.children).toHaveLength(ScanIcon.length);
    ScanIcon.forEach(([tag, attrs], i) => {
      const shape = svg.children[i]!;
      expect(shape.tagName).toBe(tag);
      for (const [name, value] of Object.entries(attrs)) expect(shape.getAttribute(name)).toBe(String(value));
    });
  });

  it("draws every icon the app uses without React rejecting an attribute", () => {
    expect(nodes.length).toBeGreaterThan(10);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const [name, node] of nodes) {
        const { container } = render(<Icon node={node} />);
        expect(container.querySelector("svg")!.children.length, name).toBe(node.length);
        cleanup();
      }
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });
});
