import { lazy, Suspense, useState } from "react";
import { useLingui } from "@lingui/react";
import { USER_MENU } from "./user-menu";
import { Menu } from "../ui/Menu";
import { ExpandIcon, Icon } from "../ui/icons";

const loadItems = () => import("./UserMenuItems");
const UserMenuItems = lazy(loadItems);

/** Starts the menu's entries loading before it opens: a finger on its button is a tap coming. */
export const prepareUserMenu = () => void loadItems();

/**
 * The signed-in member's menu in the navigation bar (docs/spec.md §2 "Navigation bar"): its
 * entries (UserMenuItems.tsx) load when it first opens, or as a finger or the focus comes to a
 * button that opens it. On a phone the bottom bar's Menu button opens it (TabBar.tsx), as a
 * bottom sheet.
 */
export function UserMenu({ name, onChoose }: { name: string; onChoose: () => void }) {
  const { i18n } = useLingui();
  const [opened, setOpened] = useState(false);
  return (
    <Menu
      id={USER_MENU}
      button={
        <>
          {name || i18n._("User")}
          <Icon node={ExpandIcon} />
        </>
      }
      buttonClassName="nav-item dropdown-trigger"
      onOpen={() => setOpened(true)}
      onPrepare={prepareUserMenu}
    >
      {opened && (
        <Suspense fallback={null}>
          <UserMenuItems onChoose={onChoose} />
        </Suspense>
      )}
    </Menu>
  );
}
