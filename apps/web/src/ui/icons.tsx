import { createElement } from "react";
import type { IconNode } from "lucide";

/**
 * The app's icons, all from one maintained set, Lucide (lucide.dev), drawn as inline SVG rather
 * than text characters: a symbol that a phone's fonts lack shows as an empty box. The rest of the
 * app takes them from here, never from the library.
 *
 * Lucide's vanilla package gives each icon as plain data in a module of its own: re-exported
 * (not wrapped in a component defined here), each lands only in the chunks whose screens draw it,
 * so the login page does not carry the dashboard's icons. The renderer below is all the runtime
 * there is: the same icons through lucide-react weighed 1.3 KB more gzipped on the login page and
 * 1.8 KB more with the dashboard (measured 2026-11-25).
 */
export {
  ArrowLeft as BackIcon,
  ArrowDownLeft as ReceivedIcon,
  ArrowLeftRight as ExchangeIcon,
  ArrowUpRight as SendIcon,
  Bell as BellIcon,
  CalendarClock as ScheduleIcon,
  CalendarSync as StandingOrdersIcon,
  BuildingComplex as AssociationIcon,
  CalendarCheck as DuesIcon,
  ChartColumn as FiguresIcon,
  CircleUser as ProfileIcon,
  Check as CheckIcon,
  CircleQuestionMark as HelpIcon,
  CircleCheckBig as PaidIcon,
  ChevronDown as ExpandIcon,
  ChevronLeft as PreviousIcon,
  ChevronRight as NextIcon,
  Delete as BackspaceIcon,
  Download as DownloadIcon,
  FileText as TermsIcon,
  EllipsisVertical as MoreIcon,
  FingerprintPattern as FingerprintIcon,
  HandCoins as CreditRequestsIcon,
  History as HistoryIcon,
  House as HomeIcon,
  Info as AboutIcon,
  LogOut as SignOutIcon,
  Map as MapIcon,
  Maximize as FullScreenIcon,
  Menu as MenuIcon,
  Minimize as ExitFullScreenIcon,
  Plus as PlusIcon,
  QrCode as QrCodeIcon,
  RefreshCw as RefreshIcon,
  ScanQrCode as ScanIcon,
  Settings as SettingsIcon,
  Shield as AdministrationIcon,
  ShoppingBag as MarketIcon,
  Star as StarIcon,
  Store as ShopIcon,
  TriangleAlert as WarningIcon,
  Upload as UploadIcon,
  UserPlus as AccountRequestsIcon,
  Users as MembersIcon,
  Wallet as WalletIcon,
  X as CloseIcon,
} from "lucide";
export type { IconNode };

/**
 * One icon (`<Icon node={CloseIcon} />`), in the text's colour and sized with it. Lucide's stroke
 * (2 px wide, round, no fill) is set by styles.css `.icon`, once, rather than on every icon drawn.
 * Decorative, hidden from screen readers: the button's label or the text beside it says what it does.
 */
export function Icon({ node, className }: { node: IconNode; className?: string | undefined }) {
  return (
    <svg className={className ? `icon ${className}` : "icon"} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {node.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs }))}
    </svg>
  );
}
