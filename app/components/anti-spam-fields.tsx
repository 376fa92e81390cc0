import { HONEYPOT_FIELD, STAMP_FIELD } from "~/utils/form-guard";

/**
 * The two spam checks an anonymous form carries (tributes, contact; checked by form-guard.server.ts):
 * the signed stamp of when the form was served, and a honeypot. The honeypot is hidden from people and
 * from screen readers, and out of the tab order; bots fill every field.
 */
export function AntiSpamFields({ stamp }: { stamp: string }) {
  return (
    <>
      <input type="hidden" name={STAMP_FIELD} value={stamp} />
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Leave this empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
    </>
  );
}
