import { useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/vault";
import { ErrorList, FormAlert, PasswordField, useHydrated } from "~/components/forms";
import { deleteVaultFile, listVaultFiles, lockVault, setVaultPassword, unlockVault, uploadVaultFile, vaultAccess } from "~/models/accounts/vault.server";
import { requireUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { BodyTooLargeError, MalformedFormError, readMultipartForm } from "~/request/multipart.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast, type ToastInput } from "~/request/toast.server";
import { vaultCaller } from "~/request/vault.server";
import { formatShortDate } from "~/utils/dates";
import { PLANS, PLANS_HREF } from "~/utils/plans";
import type { RequestBodyHandle } from "~/utils/upload-limits";
import {
  passwordStrength,
  PASSWORD_CHECKS,
  VAULT_ACCEPT,
  VAULT_CATEGORIES,
  VAULT_CATEGORY_LABELS,
  VAULT_LIMITS,
  VAULT_MESSAGES,
  VAULT_TYPES,
  describeSize,
  type VaultCategory,
} from "~/utils/vault-rules";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The encrypted vault. Every part is a
// plain form: unlocking, uploading, deleting (after a confirmation), and the first-upload prompt to set a
// password or skip it with an acknowledgement. The lock is the server's (app/models/accounts/vault.server.ts): a
// locked vault shows only its unlock form, whatever the address asks for.

// One file and the form around it: the server lets this route read that much, once it knows the member.
export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: VAULT_LIMITS.fileBytes + 64 * 1024 }, kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const caller = await vaultCaller(request, user);
  const access = await vaultAccess(caller);
  const url = new URL(request.url);
  const base = { access, plusName: PLANS.forever_plus.name, askForPassword: url.searchParams.has("protect") && !access.hasPassword };
  if (!access.open || !access.unlocked) return { ...base, files: [], usedBytes: 0 };
  const listed = await listVaultFiles(caller);
  return { ...base, files: listed.ok ? listed.files : [], usedBytes: listed.ok ? listed.usedBytes : 0 };
}

type ActionData = { form: "unlock" | "upload" | "password" | "skip" | "delete"; message: string; field?: string };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const caller = await vaultCaller(request, user);
  let form: FormData;
  try {
    form = await readMultipartForm(request, VAULT_LIMITS.fileBytes + 64 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return data<ActionData>({ form: "upload", message: `${VAULT_MESSAGES.tooLarge}: ${VAULT_MESSAGES.tooLargeHint}` }, { status: 413 });
    if (error instanceof MalformedFormError) return data<ActionData>({ form: "upload", message: VAULT_MESSAGES.uploadFailed }, { status: 400 });
    throw error;
  }
  const text = (name: string) => (typeof form.get(name) === "string" ? String(form.get(name)) : "");
  const back = async (toast: ToastInput, to = "/vault") => redirectWithToast(to, toast);

  switch (text("intent")) {
    case "unlock": {
      const result = await unlockVault(caller, text("password"), clientIp(request));
      if (result.ok) return back({ type: "success", title: "Vault unlocked" });
      return data<ActionData>(
        { form: "unlock", message: result.message, field: "password" },
        result.reason === "rate-limited" ? rateLimitedInit(result) : { status: 400 },
      );
    }
    case "lock":
      await lockVault(caller.sessionId);
      return back({ type: "info", title: "Vault locked" });
    case "upload": {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0)
        return data<ActionData>({ form: "upload", message: "Choose a file to upload", field: "file" }, { status: 400 });
      const category = VAULT_CATEGORIES.includes(text("category") as VaultCategory) ? (text("category") as VaultCategory) : null;
      const result = await uploadVaultFile(caller, { fileName: file.name, mimeType: file.type, bytes: new Uint8Array(await file.arrayBuffer()), category });
      if (!result.ok) {
        const hint =
          result.reason === "invalid-type" ? ` ${VAULT_MESSAGES.invalidTypeHint}` : result.reason === "too-large" ? ` ${VAULT_MESSAGES.tooLargeHint}` : "";
        const status = result.reason === "too-large" ? 413 : result.reason === "invalid-type" ? 415 : result.reason === "subscription-required" ? 403 : 400;
        return data<ActionData>({ form: "upload", message: `${result.message}.${hint}`.replace("..", "."), field: "file" }, { status });
      }
      return back(
        { type: "success", title: "File uploaded", description: `${result.file.name} is in your vault, encrypted.` },
        result.askForPassword ? "/vault?protect" : "/vault",
      );
    }
    case "delete": {
      const result = await deleteVaultFile(caller, text("fileId"));
      if (!result.ok) return back({ type: "error", title: VAULT_MESSAGES.deleteFailed, description: result.message });
      return back({ type: "success", title: "File deleted" });
    }
    case "set-password": {
      const result = await setVaultPassword(caller, text("password"), text("confirmPassword"));
      if (!result.ok) return data<ActionData>({ form: "password", message: result.message, field: result.field }, { status: 400 });
      return back({ type: "success", title: "Vault password set", description: "Your vault now asks for it in every new session." });
    }
    case "skip-password":
      if (text("acknowledge") !== "on") return data<ActionData>({ form: "skip", message: VAULT_MESSAGES.acknowledge, field: "acknowledge" }, { status: 400 });
      return back({ type: "info", title: "No vault password", description: "You can set one at any time from this page." });
    default:
      return data<ActionData>({ form: "upload", message: VAULT_MESSAGES.uploadFailed }, { status: 400 });
  }
}

export default function VaultPage({ loaderData, actionData }: Route.ComponentProps) {
  const { access, files, usedBytes, askForPassword, plusName } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Vault</h1>
      <p className="mt-2 text-stone-700">Important documents, encrypted where they are stored, and opened only from your account.</p>
      <div className="mt-8 space-y-8">
        {!access.open ? (
          <SubscriptionRequired plusName={plusName} />
        ) : !access.unlocked ? (
          <Unlock failure={actionData?.form === "unlock" ? actionData.message : null} />
        ) : (
          <>
            {askForPassword || actionData?.form === "password" || actionData?.form === "skip" ? <ProtectPrompt failure={actionData ?? null} /> : null}
            {access.canUpload ? (
              <Upload failure={actionData?.form === "upload" ? actionData.message : null} usedBytes={usedBytes} />
            ) : (
              <SubscriptionRequired plusName={plusName} keeping />
            )}
            <Files files={files} />
            {access.hasPassword ? (
              <Form method="post" encType="multipart/form-data">
                <button type="submit" name="intent" value="lock" className="btn-secondary">
                  Lock the vault now
                </button>
              </Form>
            ) : !askForPassword ? (
              <SetPasswordLater failure={actionData?.form === "password" ? actionData : null} />
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}

function SubscriptionRequired({ plusName, keeping = false }: { plusName: string; keeping?: boolean }) {
  return (
    <section aria-labelledby="subscription-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-5">
      <h2 id="subscription-heading" className="font-semibold text-amber-950">
        Subscription required
      </h2>
      <p className="mt-1 text-amber-950">
        {keeping
          ? `Your files stay here, and you can open and delete them. Adding new ones needs the ${plusName} plan.`
          : `The encrypted vault comes with the ${plusName} plan.`}
      </p>
      <Link to={PLANS_HREF} className="btn-primary mt-3">
        See plans
      </Link>
    </section>
  );
}

function Unlock({ failure }: { failure: string | null }) {
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="unlock-heading" className="max-w-md rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="unlock-heading" className="text-xl font-semibold text-stone-900">
        Your vault is locked
      </h2>
      <p className="mt-1 text-stone-700">Enter your vault password to open it. It stays open for 15 minutes after you last use it.</p>
      <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="unlock" />
        <PasswordField
          label="Vault password"
          errors={failure ? [failure] : undefined}
          inputProps={{ name: "password", id: "vault-password", type: "password", required: true, autoComplete: "current-password", autoFocus: !!failure }}
        />
        <div className="flex gap-3">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Unlocking..." : "Unlock"}
          </button>
          <Link to="/" className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

function Upload({ failure, usedBytes }: { failure: string | null; usedBytes: number }) {
  const busy = useNavigation().formData?.get("intent") === "upload";
  const errorId = failure ? "vault-file-error" : undefined;
  return (
    <section aria-labelledby="upload-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="upload-heading" className="text-xl font-semibold text-stone-900">
        Add a file
      </h2>
      <p id="vault-file-hint" className="mt-1 text-sm text-stone-700">
        {VAULT_TYPES.map((t) => t.label).join(", ")}; up to {describeSize(VAULT_LIMITS.fileBytes)} each.{" "}
        {usedBytes
          ? `You are using ${describeSize(usedBytes)} of ${describeSize(VAULT_LIMITS.quotaBytes)}.`
          : `Your vault holds up to ${describeSize(VAULT_LIMITS.quotaBytes)}.`}
      </p>
      {failure ? (
        <FormAlert title={VAULT_MESSAGES.uploadFailed} id="vault-upload-failure">
          {failure}
        </FormAlert>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <input type="hidden" name="intent" value="upload" />
        <div>
          <label htmlFor="vault-file" className="block text-sm font-medium text-stone-800">
            File
          </label>
          <input
            id="vault-file"
            name="file"
            type="file"
            required
            accept={VAULT_ACCEPT}
            aria-invalid={failure ? true : undefined}
            aria-describedby={["vault-file-hint", errorId].filter(Boolean).join(" ")}
            // The browser's own "Choose file" looked like plain text: styled as our secondary
            // button, with the focus ring on the control when it is reached by keyboard.
            className="mt-1 block w-full max-w-full cursor-pointer rounded-md text-sm text-stone-800 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-stone-400 file:bg-white file:px-4 file:py-2 file:font-semibold file:text-stone-800 hover:file:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-heather-600"
          />
          <ErrorList id={errorId} errors={failure ? [failure] : undefined} />
        </div>
        <div>
          <label htmlFor="vault-category" className="block text-sm font-medium text-stone-800">
            Category
          </label>
          <select id="vault-category" name="category" defaultValue="" className="mt-1 block rounded-md border border-stone-400 px-3 py-2 text-stone-900">
            <option value="">By its kind</option>
            {VAULT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {VAULT_CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Encrypting..." : "Upload"}
        </button>
      </Form>
    </section>
  );
}

type FileRow = Route.ComponentProps["loaderData"]["files"][number];

function Files({ files }: { files: FileRow[] }) {
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading" className="text-xl font-semibold text-stone-900">
        Your files ({files.length})
      </h2>
      {files.length === 0 ? (
        <p className="mt-2 text-stone-700">Nothing here yet. Wills, deeds, letters and photographs are safe here.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
          {files.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0 wrap-anywhere">
                <p className="font-medium text-stone-900">{file.name}</p>
                <p className="text-sm text-stone-700">
                  {VAULT_CATEGORY_LABELS[file.category]} · {describeSize(file.size)} · added {formatShortDate(file.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <a href={`/vault/files/${file.id}/download`} className="btn-secondary" download>
                  Download<span className="sr-only"> {file.name}</span>
                </a>
                {/* Open on a phone, the confirmation takes the row's width below the buttons, never off the screen's edge. */}
                <details className="relative open:basis-full sm:open:basis-auto">
                  <summary className="btn-ghost cursor-pointer list-none text-red-800 [&::-webkit-details-marker]:hidden">
                    Delete<span className="sr-only"> {file.name}</span>
                  </summary>
                  <div className="mt-2 rounded-md border border-stone-200 bg-white p-3 sm:absolute sm:right-0 sm:z-10 sm:w-64 sm:shadow-lg">
                    <p className="text-sm text-stone-800">Delete {file.name}? This cannot be undone.</p>
                    <Form method="post" encType="multipart/form-data" className="mt-2">
                      <input type="hidden" name="fileId" value={file.id} />
                      <button type="submit" name="intent" value="delete" className="btn-primary w-full bg-red-700 hover:bg-red-800">
                        Delete file
                      </button>
                    </Form>
                  </div>
                </details>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** After the first upload into an empty vault without a password: set one, or skip with a tick. */
function ProtectPrompt({ failure }: { failure: ActionData | null }) {
  return (
    <section aria-labelledby="protect-heading" className="rounded-lg border border-heather-300 bg-heather-50 p-5">
      <h2 id="protect-heading" className="text-xl font-semibold text-stone-900">
        Protect your vault with a password?
      </h2>
      <p className="mt-1 text-stone-800">
        Your files are encrypted where they are stored, whatever you choose here. A vault password adds a second lock: anyone signed in to your account would
        need it too. If you forget it, write to us: it is a lock on the door, not the key to the files, so they are never lost.
      </p>
      <NewVaultPassword failure={failure?.form === "password" ? failure : null} />
      <Form method="post" encType="multipart/form-data" className="mt-6 border-t border-heather-200 pt-4">
        <input type="hidden" name="intent" value="skip-password" />
        <div className="flex items-start gap-2">
          <input
            id="acknowledge"
            name="acknowledge"
            type="checkbox"
            className="mt-1 h-4 w-4"
            aria-invalid={failure?.form === "skip" ? true : undefined}
            aria-describedby={failure?.form === "skip" ? "acknowledge-error" : undefined}
          />
          <label htmlFor="acknowledge" className="text-stone-800">
            I understand that without a password anyone signed in to my account can open my vault.
          </label>
        </div>
        <ErrorList id="acknowledge-error" errors={failure?.form === "skip" ? [failure.message] : undefined} />
        <button type="submit" className="btn-secondary mt-3">
          Skip for now
        </button>
      </Form>
    </section>
  );
}

function SetPasswordLater({ failure }: { failure: ActionData | null }) {
  return (
    <details className="rounded-lg border border-stone-200 bg-white p-5" open={!!failure}>
      <summary className="cursor-pointer font-semibold text-stone-900">Set a vault password</summary>
      <NewVaultPassword failure={failure} />
    </details>
  );
}

/** The new password, its confirmation and the strength meter (live with JavaScript; the rules are listed without). */
function NewVaultPassword({ failure }: { failure: ActionData | null }) {
  const hydrated = useHydrated();
  const [password, setPassword] = useState("");
  const strength = passwordStrength(password);
  return (
    <Form method="post" encType="multipart/form-data" className="mt-4 max-w-md space-y-4">
      <input type="hidden" name="intent" value="set-password" />
      <PasswordField
        label="Vault password"
        errors={failure?.field === "password" ? [failure.message] : undefined}
        onValueChange={setPassword}
        inputProps={{ name: "password", id: "new-vault-password", type: "password", required: true, autoComplete: "new-password" }}
        hint={
          <div className="space-y-1">
            {hydrated ? (
              <p>
                Strength: <strong>{password ? strength.label : "—"}</strong> ({strength.score}/100, at least 80 needed)
              </p>
            ) : (
              <p>At least four of these five:</p>
            )}
            <ul className="text-sm">
              {PASSWORD_CHECKS.map((check, i) => (
                <li key={check.label}>
                  {hydrated ? (strength.checks[i].met ? "✓ " : "○ ") : "• "}
                  {check.label}
                </li>
              ))}
            </ul>
          </div>
        }
      />
      <PasswordField
        label="Confirm vault password"
        errors={failure?.field === "confirmPassword" ? [failure.message] : undefined}
        inputProps={{ name: "confirmPassword", id: "confirm-vault-password", type: "password", required: true, autoComplete: "new-password" }}
      />
      <button type="submit" className="btn-primary">
        Set password
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Vault · Everlight" }, { name: "robots", content: "noindex" }];
