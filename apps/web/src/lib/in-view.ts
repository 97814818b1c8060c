import { useEffect, useRef, useState } from "react";

/**
 * Whether an element has come into view (or near it) once: what is below a phone's first screen
 * is fetched and loaded when the member scrolls to it, not with the page.
 */
export function useSeen<T extends Element>(watch = true) {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (seen || !watch || !el) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), { rootMargin: "50px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen, watch]);
  return { ref, seen };
}
