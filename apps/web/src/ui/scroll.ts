import type { UIEvent } from "react";

/** An onScroll handler that asks for more once the list is within `px` of its bottom (docs/spec.md §9: 50 or 500 px). */
export function loadMoreNearBottom(px: number, more: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) {
  return (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= px && more.hasNextPage && !more.isFetchingNextPage) void more.fetchNextPage();
  };
}
