import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// End-to-end tests in Debian's Chromium: every journey runs twice, with JavaScript on
// (`js`) and off (`no-js`). e2e/global-setup.ts starts the built app on a free port with a temp data
// folder; the fixtures in e2e/fixtures.ts point every test at it.
// Debian's headless shell is the same engine without the desktop browser around it: on CI's two cores a
// journey in it takes about half the time it takes in the full browser. The full one serves where the shell
// is not installed.
const headlessShell = "/usr/bin/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium");

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // CI's machine is shared and slow (2 cores, Chromium and the server on them): a journey gets a minute there.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  use: {
    // A trace records every action (screenshots, DOM snapshots) to keep only a failed test's: about a
    // seventh of the run's time. CI's log keeps the error and the call log, not the files, so none there.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
});
