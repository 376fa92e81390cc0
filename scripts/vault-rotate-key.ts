// `npm run vault:rotate-key [-- --retire]`: a new vault master key becomes current and every file's data
// key is re-wrapped with it (app/models/accounts/vault.server.ts rotateVaultKeys); with --retire, older key
// versions no file uses any more are removed from the key file. Run it where the app's environment is
// (DATABASE_URL or DATA_DIR, VAULT_KEY_FILE), with the app stopped or running: either is safe, since a
// file keeps working under its old version until it is re-wrapped.
import { rotateVaultKeys } from "../app/models/accounts/vault.server";
import { closeDatabase } from "../app/services/db.server";
import { keyFilePath } from "../app/services/vault-crypto.server";

const retire = process.argv.includes("--retire");
try {
  const result = await rotateVaultKeys({ retire });
  console.log(`Vault key version ${result.version} is now current (${keyFilePath()}); ${result.rewrapped} file key(s) re-wrapped.`);
  if (retire) console.log(result.retired.length ? `Retired version(s): ${result.retired.join(", ")}.` : "No older version could be retired.");
} finally {
  await closeDatabase();
}
