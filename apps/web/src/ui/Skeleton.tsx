/**
 * Grey blocks standing for `rows` rows while they load (styles.css: they pulse, unless the member
 * asks for less motion). Hidden from screen readers: the box they are in says it is busy.
 */
export function Skeleton({ rows, className }: { rows: number; className: string }) {
  return (
    <div className={`skeleton ${className}`} aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} />
      ))}
    </div>
  );
}
