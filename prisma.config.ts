import { defineConfig } from "prisma/config";

// `prisma generate` needs no database. `prisma migrate deploy` (where its engine can be had) reads
// DATABASE_URL; locally the app applies prisma/migrations itself (app/services/migrate.server.ts).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/everlight" },
});
