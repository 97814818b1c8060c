/** The user menu's element id: the navigation bar renders it, the phone's bottom bar opens it too. */
export const USER_MENU = "user-menu";
