import type { CSSProperties, ReactNode } from "react";
import { useLingui } from "@lingui/react";
import "./admin.css";

/**
 * The tables of the admin screens: visible column headers, then (by default) an unlabelled actions
 * column. On a phone each row becomes a card whose cells are labelled with their column's header
 * (passed to the stylesheet as `--col-N` strings), so nothing scrolls sideways.
 */
export function AdminTable({ columns, actions = true, children }: { columns: string[]; actions?: boolean; children: ReactNode }) {
  const { i18n } = useLingui();
  const labels = Object.fromEntries(columns.map((c, i) => [`--col-${i + 1}`, JSON.stringify(c)])) as CSSProperties;
  return (
    <table className="admin-table" style={labels}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">{i18n._("Action")}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
