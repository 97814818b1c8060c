export * from "./keys";
export * from "./keystore";
export { toHex, fromHex } from "./hex";
export * from "./pin";
