import { ENDOWMENT_PERCENT } from "~/utils/plans";

/** The endowment fund's policy as the Forever plan states it: the plan page's dialog and /endowment. */
export function EndowmentPolicyPoints() {
  return (
    <ul className="mt-3 list-disc space-y-1 pl-5 text-stone-800">
      <li>{ENDOWMENT_PERCENT}% of each Forever Plan purchase goes to a ring-fenced endowment fund.</li>
      <li>Only income is spent on hosting, security and migration. The capital stays untouched.</li>
      <li>An annual public report is published.</li>
      <li>A succession plan hands memorials to a nonprofit archive if the company closes.</li>
    </ul>
  );
}
