import type { ReactNode } from "react";
import { useLingui } from "@lingui/react";

/** The tables of the admin screens: visible column headers, then (by default) an unlabelled actions column. */
export function AdminTable({ columns, actions = true, children }: { columns: string[]; actions?: boolean; children: ReactNode }) {
  const { i18n } = useLingui();
  return (
    <table className="admin-table">
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
