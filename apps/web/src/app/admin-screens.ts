/**
 * The screens of the administrators and of the board, loaded together through this one module:
 * each lazily loaded chunk is a name in the login page's preload map, which every member
 * downloads, and these screens are opened by few (bench/budgets.json). The board's chart
 * (uPlot) stays a chunk of its own, loaded by the figures screen.
 */
export { PendingAccountsScreen } from "../features/association/admin/PendingAccountsScreen";
export { PendingCreditsScreen } from "../features/association/admin/PendingCreditsScreen";
export { AdminConsoleScreen } from "../features/association/admin/AdminConsoleScreen";
export { MembersScreen } from "../features/association/members/MembersScreen";
export { MemberScreen } from "../features/association/members/MemberScreen";
export { FiguresScreen } from "../features/board/FiguresScreen";
export { SettingsScreen } from "../features/association/settings/SettingsScreen";
export { ImportScreen } from "../features/import/ImportScreen";
export { FederationScreen } from "../features/federation/links/FederationScreen";
