import Bowser from "bowser";

/**
 * What a member calls the device a credential was registered on ("Chrome · Android", read
 * alike in every language), from the
 * User-Agent of the registering request: only a label in their list, never used to decide anything.
 */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return "";
  try {
    const { browser, os } = Bowser.parse(userAgent.slice(0, 512));
    const name = [browser.name, os.name].filter(Boolean).join(" · ");
    return name.slice(0, 100);
  } catch {
    return "";
  }
}
