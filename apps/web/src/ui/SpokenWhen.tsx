import { useState } from "react";
import { formatWhen } from "@mutua/domain";
import { useFormat } from "../lib/format";

/**
 * When something happened, as a person says it ("Today, 13:15", "Yesterday, 9:02"), as of when the
 * dialog opened: the line a detail dialog leads with. The spec's exact date stays in its details.
 */
export function SpokenWhen({ iso }: { iso: string }) {
  const fmt = useFormat();
  const [openedAt] = useState(() => new Date());
  return (
    <p className="detail-when">
      <time dateTime={iso}>{formatWhen(new Date(iso), openedAt, fmt.dateLocale)}</time>
    </p>
  );
}
