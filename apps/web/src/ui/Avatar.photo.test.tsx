import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render } from "@testing-library/react";
import { Avatar } from "./Avatar";

afterEach(cleanup);

describe("Avatar with a photo", () => {
  it("shows the photo in the disc, hidden from screen readers with the disc", () => {
    const { container } = render(<Avatar name="Alice Martin" photoUrl="/api/members/1/photo?v=1" />);
    const img = container.querySelector(".avatar > img")!;
    expect(img.getAttribute("src")).toBe("/api/members/1/photo?v=1");
    expect(img.getAttribute("alt")).toBe("");
    expect(container.querySelector(".avatar")!.getAttribute("aria-hidden")).toBe("true");
    expect(container.textContent).toBe("");
  });

  it("falls back to the initials when the photo cannot be loaded, and tries a new photo again", () => {
    const { container, rerender } = render(<Avatar name="Alice Martin" photoUrl="/api/members/1/photo?v=1" />);
    fireEvent.error(container.querySelector("img")!);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe("AM");
    rerender(<Avatar name="Alice Martin" photoUrl="/api/members/1/photo?v=2" />);
    expect(container.querySelector("img")!.getAttribute("src")).toBe("/api/members/1/photo?v=2");
  });

  it("shows the initials without a photo", () => {
    const { container } = render(<Avatar name="Alice Martin" photoUrl={null} />);
    expect(container.textContent).toBe("AM");
  });
});
