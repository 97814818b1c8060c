import { searchKey, type MemberWallet } from "@mutua/domain";

/**
 * The wallets among `wallets` whose member's name or e-mail holds `typed`: what the list shows
 * while the server's answer for the text typed is on its way, compared
 * as the server compares them (searchKey).
 */
export function narrowWallets(wallets: MemberWallet[], typed: string): MemberWallet[] {
  const key = searchKey(typed);
  return key ? wallets.filter((w) => searchKey(`${w.name} ${w.email}`).includes(key)) : wallets;
}
