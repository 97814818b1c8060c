import type { MemberWallet } from "@mutua/domain";

/**
 * Text as the server compares it (@mutua/domain searchKey): accents, case and runs of spaces
 * ignored. Written out here rather than imported: the domain's search module would otherwise be
 * split off into a file of its own, which the dashboard would load too. The server's answer, a
 * moment later, is the one that counts.
 */
const folded = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * The wallets among `wallets` whose member's name or e-mail holds `typed`: what the list shows
 * while the server's answer for the text typed is on its way.
 */
export function narrowWallets(wallets: MemberWallet[], typed: string): MemberWallet[] {
  const key = folded(typed);
  return key ? wallets.filter((w) => folded(`${w.name} ${w.email}`).includes(key)) : wallets;
}
