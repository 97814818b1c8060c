import type { ReactNode } from "react";
import "./admin.css";

/** A part of the console: a region named by its label, the small muted heading above its list. */
export function ConsoleSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="console-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="console-label">
        {title}
      </h2>
      {children}
    </section>
  );
}
