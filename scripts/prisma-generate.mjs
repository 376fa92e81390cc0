// Runs `prisma generate` offline. Generating the client needs no engine, but the CLI tries to
// download its schema engine unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file
//, so point it at one; nothing executes it here.
import { spawnSync } from "node:child_process";
import process from "node:process";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
