import { useLingui } from "@lingui/react";
import { WEEK_DAYS, type OpeningHours } from "@mutua/domain";

/**
 * A business's weekly opening hours, a day a line (one or two openings a day, or closed), and
 * the days that differ (closed, or other hours), as the member types them.
 */
export function HoursEditor({ value, onChange }: { value: OpeningHours; onChange: (h: OpeningHours) => void }) {
  const { i18n } = useLingui();
  const dayName = (day: number) => new Intl.DateTimeFormat(i18n.locale, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + day)));
  const slotsOf = (day: number) => value.weekly.filter((s) => s.day === day);
  const setDay = (day: number, slots: { open: string; close: string }[]) =>
    onChange({ ...value, weekly: [...value.weekly.filter((s) => s.day !== day), ...slots.map((s) => ({ day, ...s }))].sort((a, b) => a.day - b.day) });
  const setException = (i: number, e: OpeningHours["exceptions"][number] | null) =>
    onChange({ ...value, exceptions: e ? value.exceptions.map((x, j) => (j === i ? e : x)) : value.exceptions.filter((_, j) => j !== i) });

  return (
    <fieldset className="hours-editor">
      <legend>{i18n._("Opening hours")}</legend>
      {WEEK_DAYS.map((day) => {
        const slots = slotsOf(day);
        const name = dayName(day);
        return (
          <div className="hours-row" key={day}>
            <label className="checkbox hours-day">
              <input
                type="checkbox"
                checked={slots.length > 0}
                onChange={(e) => setDay(day, e.target.checked ? [{ open: "09:00", close: "18:00" }] : [])}
                aria-label={i18n._("Open on {day}", { day: name })}
              />
              {name}
            </label>
            {slots.map((s, i) => (
              <span className="hours-slot" key={i}>
                <input
                  type="time"
                  value={s.open}
                  aria-label={i18n._("{day}: opens at", { day: name })}
                  onChange={(e) =>
                    setDay(
                      day,
                      slots.map((x, j) => (j === i ? { ...x, open: e.target.value } : x)),
                    )
                  }
                />
                –
                <input
                  type="time"
                  value={s.close}
                  aria-label={i18n._("{day}: closes at", { day: name })}
                  onChange={(e) =>
                    setDay(
                      day,
                      slots.map((x, j) => (j === i ? { ...x, close: e.target.value } : x)),
                    )
                  }
                />
              </span>
            ))}
            {slots.length === 1 && (
              <button type="button" className="button small" onClick={() => setDay(day, [...slots, { open: "14:00", close: "18:00" }])}>
                {i18n._("Add an opening")}
              </button>
            )}
            {slots.length === 2 && (
              <button type="button" className="button small" onClick={() => setDay(day, slots.slice(0, 1))}>
                {i18n._("Remove the second opening")}
              </button>
            )}
          </div>
        );
      })}
      <p className="hint">{i18n._("Days that differ (a holiday, other hours):")}</p>
      {value.exceptions.map((e, i) => (
        <div className="hours-row" key={i}>
          <input type="date" value={e.date} aria-label={i18n._("Date")} onChange={(ev) => setException(i, { ...e, date: ev.target.value })} />
          <label className="checkbox">
            <input type="checkbox" checked={e.closed} onChange={(ev) => setException(i, { ...e, closed: ev.target.checked, open: "10:00", close: "16:00" })} />
            {i18n._("Closed all day")}
          </label>
          {!e.closed && (
            <span className="hours-slot">
              <input type="time" value={e.open ?? ""} aria-label={i18n._("Opens at")} onChange={(ev) => setException(i, { ...e, open: ev.target.value })} />
              –
              <input type="time" value={e.close ?? ""} aria-label={i18n._("Closes at")} onChange={(ev) => setException(i, { ...e, close: ev.target.value })} />
            </span>
          )}
          <button type="button" className="button small" onClick={() => setException(i, null)}>
            {i18n._("Remove")}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        onClick={() => onChange({ ...value, exceptions: [...value.exceptions, { date: new Date().toISOString().slice(0, 10), closed: true }] })}
      >
        {i18n._("Add a day that differs")}
      </button>
    </fieldset>
  );
}
