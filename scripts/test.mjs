// `npm test`: everything a change can break, on real parts. Type-checks, lints, checks the
// format, builds, runs the
// unit and integration tests (vitest) and the end-to-end tests (Playwright, JavaScript on and off),
// then prints one closing line summing every runner: `N passed, N failed[, N skipped]`.
import { spawn, spawnSync } from "node:child_process";
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

/**
 * Runs checks side by side, each printing its output in one piece once it ends (interleaved lines from
 * four tools would be unreadable). tsc, ESLint and Prettier each use one core: on two cores the four took
 * 66 s side by side where one after another took 76 s.
 */
function runTogether(checks) {
  return Promise.all(
    checks.map(
      ({ label, command, args }) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: runEnv() });
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("close", (code) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(`\n▶ ${label}: ${command} ${args.join(" ")} (${seconds}s)\n${output}`);
            resolve({ ok: code === 0, seconds });
          });
        }),
    ),
  );
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

// 1. Types, lint, format and the production build (which the e2e tests and the server start-up tests run),
// side by side once the route types exist; each one check.
const types = run("route types", "npx", ["--no-install", "react-router", "typegen"]);
const [tsc, lint, format, build] = await runTogether([
  { label: "types", command: "npx", args: ["--no-install", "tsc", "--noEmit"] },
  { label: "lint", command: "npx", args: ["--no-install", "eslint", "--max-warnings=0", "."] },
  { label: "format", command: "npx", args: ["--no-install", "prettier", "--check", "--log-level=warn", "."] },
  { label: "build", command: "npm", args: ["run", "build"] },
]);
const typesOk = types.ok && tsc.ok;
totals[typesOk ? "passed" : "failed"] += 1;
lines.push(`types        ${typesOk ? "passed" : "FAILED"} (${tsc.seconds}s)`);
totals[lint.ok ? "passed" : "failed"] += 1;
lines.push(`lint         ${lint.ok ? "passed" : "FAILED"} (${lint.seconds}s)`);
if (!lint.ok) failures.push("lint    ESLint found problems: npx eslint .");
totals[format.ok ? "passed" : "failed"] += 1;
lines.push(`format       ${format.ok ? "passed" : "FAILED"} (${format.seconds}s)`);
if (!format.ok) failures.push("format  Prettier would change the files above: npx prettier --write .");
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
