import { useState } from "react";
import { useLingui } from "@lingui/react";
import type { AuditEntry, AuditKind } from "@mutua/domain";
import { useFormat } from "../../../lib/format";
import { Skeleton } from "../../../ui/Skeleton";
import { AUDIT_KIND_WORDS, auditAction, auditActor, auditChanges } from "./audit-words";
import { useAuditPages } from "./queries";
import { auditDays, type AuditDay } from "./audit-days";
import { ConsoleSection } from "./ConsoleSection";

const KINDS = Object.keys(AUDIT_KIND_WORDS) as AuditKind[];
const isKind = (v: string): v is AuditKind => (KINDS as string[]).includes(v);

/**
 * Who did what and when, newest first: every administrator action is kept (append-only). A page of
 * entries at a time, older ones on demand, of every kind of action or of the one chosen.
 */
export function AuditLogSection() {
  const { i18n } = useLingui();
  const [kind, setKind] = useState<AuditKind | null>(null);
  const pages = useAuditPages(kind);
  // Today and yesterday as of when the console opened, as a detail dialog says them.
  const [openedAt] = useState(() => new Date());
  const fmt = useFormat();
  const dayLabel = (day: AuditDay["day"]) => (day === "today" ? i18n._("Today") : day === "yesterday" ? i18n._("Yesterday") : fmt.date(day));
  const entries = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const busy = pages.isPending || pages.isPlaceholderData || pages.isFetchingNextPage;
  return (
    <ConsoleSection id="audit" title={i18n._("Audit log")}>
      <div className="field console-tools">
        <label htmlFor="audit-kind">{i18n._("Kind of action")}</label>
        <select id="audit-kind" value={kind ?? ""} onChange={(e) => setKind(isKind(e.target.value) ? e.target.value : null)}>
          <option value="">{i18n._("All actions")}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {AUDIT_KIND_WORDS[k](i18n)}
            </option>
          ))}
        </select>
      </div>
      <div aria-busy={busy}>
        {pages.isPending && <Skeleton rows={4} className="console-skeleton" />}
        {pages.isError && !pages.data && (
          <p className="notice error" role="alert">
            {i18n._("The audit log could not be loaded. Please refresh the page.")}
          </p>
        )}
        {pages.isSuccess && entries.length === 0 && (
          <p className="empty">{kind ? i18n._("Nothing of this kind recorded yet") : i18n._("Nothing recorded yet")}</p>
        )}
        {entries.length > 0 && (
          <div className="console-list audit-days">
            {auditDays(entries, openedAt).map((d) => (
              <div key={d.key} className="audit-day">
                <h3 className="audit-day-label">{dayLabel(d.day)}</h3>
                <ul className="audit-list">
                  {d.entries.map((e) => (
                    <AuditLine key={e.id} entry={e} />
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </div>
      {pages.hasNextPage && !pages.isPlaceholderData && (
        <button type="button" className="button small console-more" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {i18n._("Show older entries")}
        </button>
      )}
    </ConsoleSection>
  );
}

/**
 * One entry: what was done and at what time (its day is above it), what it changed (a member's
 * rights, the association's settings: each before and after), then whom it concerned and who did it.
 */
function AuditLine({ entry }: { entry: AuditEntry }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const at = new Date(entry.at);
  const changes = auditChanges(i18n, entry);
  return (
    <li className="console-row audit-row">
      <span className="audit-what">{auditAction(i18n, entry)}</span>
      <time className="audit-when" dateTime={entry.at} title={fmt.dateTime(at)}>
        {fmt.time(at)}
      </time>
      {changes.length > 0 && (
        <ul className="audit-changes">
          {changes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
      <span className="audit-who">{[entry.subjectName, auditActor(i18n, entry)].filter(Boolean).join(" · ")}</span>
    </li>
  );
}
