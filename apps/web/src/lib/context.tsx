import { createContext, useContext } from "react";
import type { AppConfig } from "@mutua/domain";
import type { MutuaClient } from "@mutua/client";

export interface AppEnv {
  config: AppConfig;
  client: MutuaClient;
}

export const AppEnvContext = createContext<AppEnv | null>(null);

export function useAppEnv(): AppEnv {
  const env = useContext(AppEnvContext);
  if (!env) throw new Error("useAppEnv outside AppEnvContext");
  return env;
}

export const useConfig = () => useAppEnv().config;
export const useClient = () => useAppEnv().client;
