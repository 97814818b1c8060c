// What a signed-in member's navigation adds, in one file loaded after sign-in (app/NavBar.tsx).
export { UserMenu } from "./UserMenu";
export { default as TabBar } from "./TabBar";
