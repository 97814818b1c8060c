import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  build: { target: "es2022", sourcemap: true },
  server: { proxy: { "/api": "http://localhost:8080", "/config.json": "http://localhost:8080" } },
});
