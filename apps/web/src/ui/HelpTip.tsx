import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { HelpIcon, Icon } from "./icons";
import type { HelpTopic } from "./help-texts";
import "./menu.css";

export type { HelpTopic };

// The explanations load on the first tap, not with the screens that offer them.
const HelpText = lazy(() => import("./help-texts"));

/**
 * A "?" beside a word the member may not know: a tap shows what it means in a sentence or two,
 * in a popover with the menus' look (a bottom sheet on a phone, by the button wider), which the
 * browser closes on Escape or a tap outside. `label` is the question it answers ("What is…?").
 */
export function HelpTip({ topic, label }: { topic: HelpTopic; label: string }) {
  const id = useId();
  const anchor = `--${id.replace(/\W/g, "")}`;
  const pop = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const el = pop.current!;
    const onToggle = (e: Event) => setOpen((e as ToggleEvent).newState === "open");
    el.addEventListener("toggle", onToggle);
    return () => el.removeEventListener("toggle", onToggle);
  }, []);
  return (
    <>
      <button type="button" className="icon-button help-tip" popoverTarget={id} aria-label={label} title={label} style={{ anchorName: anchor }}>
        <Icon node={HelpIcon} />
      </button>
      <div ref={pop} id={id} popover="auto" role="note" aria-label={label} className="menu help" style={{ positionAnchor: anchor }}>
        {open && (
          <Suspense fallback={null}>
            <HelpText topic={topic} />
          </Suspense>
        )}
      </div>
    </>
  );
}
