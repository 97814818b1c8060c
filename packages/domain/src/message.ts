/**
 * A user-facing message: `id` is the exact English text (an ICU-style template with
 * `{name}` placeholders) and doubles as the translation key, gettext style.
 */
export interface Msg {
  id: string;
  values?: Record<string, string | number>;
}

export const msg = (id: string, values?: Msg["values"]): Msg => (values ? { id, values } : { id });

/** Renders a message in English (server logs and API error bodies); knows ICU's simple one/other plural. */
export function renderMsg(m: Msg): string {
  const plural = /\{\s*(\w+)\s*,\s*plural\s*,\s*one\s*\{([^{}]*)\}\s*other\s*\{([^{}]*)\}\s*\}/g;
  const withPlurals = m.id.replace(plural, (whole, key: string, one: string, other: string) => {
    const v = m.values?.[key];
    return v === undefined ? whole : (Number(v) === 1 ? one : other).replace(/#/g, String(v));
  });
  return withPlurals.replace(/\{\s*(\w+)\s*\}/g, (whole, key: string) => {
    const v = m.values?.[key];
    return v === undefined ? whole : String(v);
  });
}
