import type { ReactNode } from "react";
import "./grouped-list.css";
import "./switch.css";

interface Props {
  /** The heading's id, which names the region. */
  id: string;
  title: string;
  /** What the group is for, small under it. */
  note?: ReactNode;
  /** The rows: a `.grouped-list` (or several, each under a `.grouped-sublabel`). */
  children: ReactNode;
}

/**
 * A part of a settings screen as an inset grouped list (grouped-list.css): a region named by its
 * label, the small muted heading above the group, and its note under it.
 */
export function GroupedSection({ id, title, note, children }: Props) {
  return (
    <section className="grouped" aria-labelledby={id}>
      <h2 id={id} className="grouped-label">
        {title}
      </h2>
      {children}
      {note && <p className="grouped-note">{note}</p>}
    </section>
  );
}
