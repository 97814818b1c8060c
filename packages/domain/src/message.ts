/**
 * A user-facing message: `id` is the exact English text (an ICU-style template with
 * `{name}` placeholders) and doubles as the translation key, gettext style.
 */
export interface Msg {
  id: string;
  values?: Record<string, string | number>;
}

export const msg = (id: string, values?: Msg["values"]): Msg => (values ? { id, values } : { id });

/** Renders a message in English (server logs and API error bodies). */
export function renderMsg(m: Msg): string {
  return m.id.replace(/\{\s*(\w+)\s*\}/g, (whole, key: string) => {
    const v = m.values?.[key];
    return v === undefined ? whole : String(v);
  });
}
