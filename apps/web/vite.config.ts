import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";

export default defineConfig({
  plugins: [
    react(),
    // The service worker (Workbox) keeps the app shell for offline starts. The manifest is not
    // built here: the server makes it from the association's config.json (name, logo, colours),
    // so a rebrand needs no rebuild. Registration and the update prompt: src/lib/pwa.ts.
    VitePWA({
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,png,json}"],
        // Heavy parts used online only (PDF, QR scanning) stay out of the install.
        // So do the board's chart (uPlot), which only the figures screen loads, and the map
        // (Leaflet), whose tiles need the network anyway.
        globIgnores: [
          "**/leaflet*",
          "**/MapView*",
          "**/jspdf*",
          "**/html2canvas*",
          "**/index.es-*",
          "**/purify*",
          "**/zxing*",
          "**/ponyfill*",
          "**/FlowsChart*",
          "**/*.map",
        ],
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//, /^\/orders\//, /^\/config\.json$/, /^\/manifest\.webmanifest$/],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname === "/config.json" || url.pathname === "/manifest.webmanifest",
            handler: "NetworkFirst",
            options: { cacheName: "mutua-config" },
          },
        ],
        // A new version waits until the member accepts the reload prompt.
        skipWaiting: false,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        // Web Push: shows the server's notifications and opens the app on a tap (public/push-sw.js).
        importScripts: ["push-sw.js"],
        // Like the app's own chunks, the service worker ships without a source map.
        sourcemap: false,
      },
    }),
  ],
  resolve: {
    // React has the hook built in since 18; the shim some libraries import would ship a second copy.
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL("./src/lib/sync-external-store.ts", import.meta.url)) },
    ],
  },
  // No source maps in the served build: they would publish the full sources and the build machine's paths.
  build: {
    target: "es2022",
    sourcemap: false,
    // Every browser the app supports (es2022) preloads modules but Safari before 17, which
    // still runs the app, fetching each module as it is imported: the polyfill for it would
    // cost every login page its bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // An area's face (features/<area>/index.ts) names what the other areas may use; the modules
      // of a feature run nothing when loaded but their stylesheets, so a screen that takes one label
      // from a face brings neither the face's other modules nor their styles.
      treeshake: { moduleSideEffects: (id) => (/[\\/]src[\\/]features[\\/].*\.tsx?$/.test(id) ? false : undefined) },
      output: {
        // Seven characters of content hash, not eight: every lazy screen's file and stylesheet is
        // named in the preload lists the login page and the dashboard carry, where random
        // characters do not compress; seven is the fewest the bundler accepts for this many files,
        // and a name still changes with its content (cached for a year: web.ts).
        entryFileNames: "assets/[name]-[hash:7].js",
        chunkFileNames: "assets/[name]-[hash:7].js",
        assetFileNames: "assets/[name]-[hash:7][extname]",
        // The small modules every page starts with (the app's context, query policies, stored
        // settings, polling, the domain's messages) travel as one file rather than one each: left to
        // itself, the bundler splits them off the entry whenever a lazy screen shares one, and each
        // file costs the login page its own request and header.
        codeSplitting: {
          groups: [
            {
              name: "start",
              // With them, what the login page shares with screens loaded later (so that it stays in one
              // file), and the domain's search keys, which the dashboard and the console share: a few
              // hundred bytes that would otherwise be a file of their own on the dashboard.
              test: /[\\/]src[\\/](lib[\\/](context|polling|query-policy|storage|toast)|message|messages|email|paths|errors|search)\.tsx?$|queryOptions\.js$|preload-helper/,
              priority: 10,
            },
            {
              name: "member-common",
              // Small modules that import nothing and that every signed-in screen starts with
              // (accounts' and stages' names, where a movement stands, the domain's amounts and closed lists): one file
              // instead of four, each of which cost the dashboard its own exports and header.
              // Leaves only, and nothing of what they import brought along: a module the login page
              // shares would take this file into it.
              test: /[\\/]src[\\/](features[\\/]wallets[\\/]accounts[\\/]labels|features[\\/]payments[\\/]reconversion[\\/]stages|features[\\/]payments[\\/]transactions[\\/]movement-state|money|vocabulary)\.ts$/,
              includeDependenciesRecursively: false,
              priority: 5,
            },
            {
              name: "member-icons",
              // Small icons that several signed-in screens share (the bottom bar, the history, the
              // payment forms): one file loaded once, instead of one each, every one of which costs
              // a request, its own wrapping and a line in the preload list of every screen using it.
              test: /[\\/]lucide[\\/].*[\\/](scan-qr-code|arrow-down-left|arrow-up-right|chevron-down|arrow-left-right|check|plus)\.mjs$/,
              priority: 5,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { "/api": "http://localhost:8080", "/config.json": "http://localhost:8080" } },
});
