export * from "./client";
export * from "./errors";
export * from "./events";
export * as admin from "./admin";
export * as market from "./market";
