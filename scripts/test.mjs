// `npm test`: everything a change can break, on real parts. Type-checks, lints, checks the
// format, builds, runs the
// unit and integration tests (vitest) and the end-to-end tests (Playwright, JavaScript on and off),
// then prints one closing line summing every runner: `N passed, N failed[, N skipped]`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import process from "node:process";

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
// The names of what failed, repeated after the summary: CI keeps only the tail of the output.
const failures = [];

function firstLine(message) {
  return (
    String(message ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((line) => line.trim())
      ?.trim()
      .slice(0, 300) ?? ""
  );
}
mkdirSync("test-results", { recursive: true });

/**
 * Colours on a terminal, none in CI's log. Many tools colour whenever FORCE_COLOR is
 * set at all, even to 0: in CI it is removed and NO_COLOR set.
 */
function runEnv() {
  const env = { ...process.env };
  if (process.env.CI) {
    delete env.FORCE_COLOR;
    env.NO_COLOR = "1";
  } else env.FORCE_COLOR = "1";
  return env;
}

function run(label, command, args) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: runEnv() });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: result.status === 0, seconds };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function collectPlaywrightFailures(suites, titles) {
  for (const suite of suites) {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`e2e     [${test.projectName}] ${[...path, spec.title].join(" › ")} (${spec.file}:${spec.line})\n        ${firstLine(error)}`);
      }
    }
    collectPlaywrightFailures(suite.suites ?? [], path);
  }
}

// 1. Types: one check.
const types = run("types", "npx", ["--no-install", "react-router", "typegen"]);
const tsc = types.ok ? run("types", "npx", ["--no-install", "tsc", "--noEmit"]) : types;
totals[tsc.ok ? "passed" : "failed"] += 1;
lines.push(`types        ${tsc.ok ? "passed" : "FAILED"} (${tsc.seconds}s)`);

// 1b. Lint and format: ESLint, then Prettier's check; each one check.
const lint = run("lint", "npx", ["--no-install", "eslint", "--max-warnings=0", "."]);
totals[lint.ok ? "passed" : "failed"] += 1;
lines.push(`lint         ${lint.ok ? "passed" : "FAILED"} (${lint.seconds}s)`);
if (!lint.ok) failures.push("lint    ESLint found problems: npx eslint .");
const format = run("format", "npx", ["--no-install", "prettier", "--check", "--log-level=warn", "."]);
totals[format.ok ? "passed" : "failed"] += 1;
lines.push(`format       ${format.ok ? "passed" : "FAILED"} (${format.seconds}s)`);
if (!format.ok) failures.push("format  Prettier would change the files above: npx prettier --write .");

// 2. The production build the e2e tests and the server start-up test run: one check.
const build = run("build", "npm", ["run", "build"]);
totals[build.ok ? "passed" : "failed"] += 1;
lines.push(`build        ${build.ok ? "passed" : "FAILED"} (${build.seconds}s)`);

// 3. Unit and integration tests.
rmSync("test-results/vitest.json", { force: true });
const vitest = run("unit + integration", "npx", [
  "--no-install",
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/vitest.json",
]);
const v = readJson("test-results/vitest.json");
if (v) {
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests + (vitest.ok || v.numFailedTests ? 0 : 1);
  totals.skipped += v.numPendingTests + v.numTodoTests;
  for (const file of v.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === "failed")
        failures.push(`vitest  ${file.name.replace(process.cwd() + "/", "")} › ${test.fullName}\n        ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
      failures.push(`vitest  ${file.name.replace(process.cwd() + "/", "")}\n        ${firstLine(file.message)}`);
    }
  }
  lines.push(`vitest       ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${v.numPendingTests + v.numTodoTests} skipped (${vitest.seconds}s)`);
} else {
  totals.failed += 1;
  lines.push(`vitest       FAILED to report (${vitest.seconds}s)`);
}

// 4. End-to-end tests (need the build).
if (build.ok) {
  rmSync("test-results/e2e-report.json", { force: true });
  const e2e = run("end-to-end", "npx", ["--no-install", "playwright", "test"]);
  const p = existsSync("test-results/e2e-report.json") ? readJson("test-results/e2e-report.json") : undefined;
  if (p?.stats) {
    const { expected, unexpected, skipped, flaky } = p.stats;
    totals.passed += expected + flaky;
    totals.failed += unexpected + (e2e.ok || unexpected ? 0 : 1);
    totals.skipped += skipped;
    collectPlaywrightFailures(p.suites ?? [], []);
    lines.push(`playwright   ${expected + flaky} passed, ${unexpected} failed, ${skipped} skipped (${e2e.seconds}s)`);
  } else {
    totals.failed += 1;
    lines.push(`playwright   FAILED to report (${e2e.seconds}s)`);
  }
} else {
  totals.failed += 1;
  lines.push("playwright   not run: the build failed");
}

if (failures.length) console.log(`\nFailed:\n${failures.join("\n")}`);
console.log(`\n${lines.join("\n")}\n`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 ? 1 : 0);
