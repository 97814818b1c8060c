import type { ReactNode } from "react";
import { Icon, type IconNode } from "./icons";
import "./empty-state.css";

/**
 * What a screen or a list says when it has nothing to show yet (no wallet, no notifications, no
 * sales, no favourites): a small picture of what will be there, why it is empty, and at most one
 * thing to do about it.
 */
export function EmptyState({
  icon,
  title,
  children,
  action,
  className,
}: {
  icon: IconNode;
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={className ? `empty-state ${className}` : "empty-state"}>
      <span className="empty-picture" aria-hidden="true">
        <Icon node={icon} />
      </span>
      {title && <p className="empty-title">{title}</p>}
      {children && <p className="empty">{children}</p>}
      {action}
    </div>
  );
}
