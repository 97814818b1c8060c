/**
 * The areas of Mutua, in their one declared order: every layer is cut by them (the server's
 * services/<area>/, the web's features, the contract's tables), and an area may use those before
 * it, never one after. `platform` is what all use (refusals, audit, mail, rate limits, keys); the
 * board comes last, as it reads every other area's figures. apps/server/test/areas.test.ts reads
 * this list and fails on an import against it.
 */
export const AREAS = [
  "platform",
  "ledger",
  "wallets",
  "members",
  "notifications",
  "shops",
  "payments",
  "association",
  "import",
  "federation",
  "board",
] as const;
export type Area = (typeof AREAS)[number];
