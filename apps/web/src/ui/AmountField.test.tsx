import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import type { Messages } from "@lingui/core";
import { parseAmountInput } from "@mutua/domain";
import { i18n, tr } from "../lib/i18n";
import catalog from "../locales/en-US.json";
import { AmountField } from "./AmountField";

/**
 * The field itself keeps what is typed as text and shows what it is told (unit, hint, error); the
 * rules are the domain's parseAmountInput, applied by each screen. `Payment` wires the two as the
 * payment step does, so the rules are checked as a member meets them.
 */
beforeAll(() => {
  i18n.loadAndActivate({ locale: "en-US", messages: (catalog as { messages: Messages }).messages });
});
afterEach(cleanup);

const TOO_MANY_DECIMALS = "Amount to send must be a number with not more than 2 decimals";

function Payment({ onChange, hint }: { onChange?: (text: string) => void; hint?: string }) {
  const [text, setText] = useState("");
  const parsed = text === "" ? null : parseAmountInput(text, "send");
  return (
    <I18nProvider i18n={i18n}>
      <AmountField
        value={text}
        onChange={(t) => {
          onChange?.(t);
          setText(t);
        }}
        currency="DL"
        error={parsed && !parsed.ok ? tr(parsed.error) : undefined}
        hint={hint}
      />
      <output aria-label="Sent as">{parsed?.ok ? parsed.text : ""}</output>
    </I18nProvider>
  );
}

/** Types `text` one character at a time, as a member does (each keystroke is an input event). */
function type(input: HTMLElement, text: string) {
  for (let i = 1; i <= text.length; i++) fireEvent.change(input, { target: { value: (input as HTMLInputElement).value + text[i - 1] } });
}

const amount = () => screen.getByLabelText<HTMLInputElement>("Amount");
const sentAs = () => screen.getByRole("status", { name: "Sent as" }).textContent;

describe("AmountField", () => {
  it("is a text field labelled Amount, with the currency beside it and a decimal keypad on phones", () => {
    render(<Payment />);
    const input = amount();
    expect(input.type).toBe("text");
    expect(input.inputMode).toBe("decimal");
    expect(input.autocomplete).toBe("off");
    expect(input.placeholder).toBe("e.g. 50");
    expect(screen.getByText("DL").className).toBe("unit");
  });

  it("hands on every keystroke as typed, and shows exactly what was typed", () => {
    const onChange = vi.fn();
    render(<Payment onChange={onChange} />);
    type(amount(), "12,50");
    expect(onChange.mock.calls.map(([t]) => t)).toEqual(["1", "12", "12,", "12,5", "12,50"]);
    expect(amount().value).toBe("12,50");
  });

  it("takes a decimal comma for the decimal point: 12,5 is sent as 12.50", () => {
    render(<Payment />);
    type(amount(), "12,5");
    expect(amount().value).toBe("12,5"); // not rewritten while typing
    expect(amount().getAttribute("aria-invalid")).toBeNull();
    expect(sentAs()).toBe("12.50");
  });

  it("lets a third decimal be typed, then refuses it with the spec's message, tied to the field", () => {
    render(<Payment />);
    type(amount(), "1,234");
    expect(amount().value).toBe("1,234");
    const error = screen.getByText(TOO_MANY_DECIMALS);
    expect(amount().getAttribute("aria-invalid")).toBe("true");
    expect(amount().getAttribute("aria-describedby")).toBe(error.id);
    expect(sentAs()).toBe("");
    // Taking the third decimal back makes it a valid amount again; trailing zeros do not count.
    fireEvent.change(amount(), { target: { value: "1,23" } });
    expect(screen.queryByText(TOO_MANY_DECIMALS)).toBeNull();
    expect(amount().getAttribute("aria-invalid")).toBeNull();
    expect(sentAs()).toBe("1.23");
    fireEvent.change(amount(), { target: { value: "1,230" } });
    expect(sentAs()).toBe("1.23");
  });

  it("is described by its hint, and by the error instead while there is one", () => {
    render(<Payment hint="Available: 10.00 DL" />);
    const hint = screen.getByText("Available: 10.00 DL");
    expect(amount().getAttribute("aria-describedby")).toBe(hint.id);
    type(amount(), "0");
    const error = screen.getByText("Amount to send must be a number greater than 0");
    expect(amount().getAttribute("aria-describedby")).toBe(error.id);
    fireEvent.change(amount(), { target: { value: "5" } });
    expect(amount().getAttribute("aria-describedby")).toBe(hint.id);
  });
});

describe("AmountField, signed (a mutual-credit floor)", () => {
  function Floor({ onChange, placeholder }: { onChange?: (text: string) => void; placeholder?: string | null }) {
    const [text, setText] = useState("-100.00");
    return (
      <I18nProvider i18n={i18n}>
        <AmountField
          label="Mutual credit floor"
          value={text}
          onChange={(t) => {
            onChange?.(t);
            setText(t);
          }}
          currency="DL"
          placeholder={placeholder}
          signed
        />
      </I18nProvider>
    );
  }
  const floor = () => screen.getByRole<HTMLInputElement>("textbox", { name: "Mutual credit floor" });

  it("is named as told, and asks phones for the full keyboard: iOS's decimal keypad has no minus sign", () => {
    render(<Floor />);
    expect(floor().inputMode).toBe("text");
    expect(floor().autocomplete).toBe("off");
    expect(floor().value).toBe("-100.00");
    expect(screen.getByText("DL").className).toBe("unit");
    expect(screen.queryByLabelText("Amount")).toBeNull();
  });

  it("takes a leading minus as typed, with a decimal comma", () => {
    const onChange = vi.fn();
    render(<Floor onChange={onChange} />);
    fireEvent.change(floor(), { target: { value: "" } });
    type(floor(), "-150,5");
    expect(onChange.mock.calls.slice(1).map(([t]) => t)).toEqual(["-", "-1", "-15", "-150", "-150,", "-150,5"]);
    expect(floor().value).toBe("-150,5");
  });

  it("hands on a typographic minus (−, or a dash from smart punctuation) as the ASCII one the API reads", () => {
    render(<Floor />);
    for (const sign of ["\u2212", "\u2013", "\u2014"]) {
      fireEvent.change(floor(), { target: { value: `${sign}20,00` } });
      expect(floor().value).toBe("-20,00");
    }
    // Only a leading sign: a dash inside the figure is left as typed, for the server to refuse.
    fireEvent.change(floor(), { target: { value: "20\u201300" } });
    expect(floor().value).toBe("20\u201300");
  });

  it("shows the example only when given one (an empty bound can mean none)", () => {
    render(<Floor placeholder={null} />);
    expect(floor().hasAttribute("placeholder")).toBe(false);
    cleanup();
    render(<Floor placeholder="e.g. -100" />);
    expect(floor().placeholder).toBe("e.g. -100");
  });

  it("leaves an unsigned field's text as typed, minus signs included (the domain refuses them there)", () => {
    const onChange = vi.fn();
    render(<Payment onChange={onChange} />);
    fireEvent.change(amount(), { target: { value: "\u22125" } });
    expect(onChange).toHaveBeenCalledWith("\u22125");
    expect(amount().inputMode).toBe("decimal");
  });
});
