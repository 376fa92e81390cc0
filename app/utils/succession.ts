// A successor (docs/decisions/021-successor.md): what the pages and emails say, and the
// timings of the absence rule, in one place.

/** The periods of absence an owner may choose, in months; 0 hands on only when the account is deleted. */
export const HAND_OVER_PERIODS = [6, 12, 24, 0] as const;
export type HandOverPeriod = (typeof HAND_OVER_PERIODS)[number];

export const HAND_OVER_PERIOD_LABELS: Record<HandOverPeriod, string> = {
  6: "After 6 months without a visit",
  12: "After a year without a visit",
  24: "After two years without a visit",
  0: "Never: only when I delete my account",
};

export function isHandOverPeriod(value: unknown): value is HandOverPeriod {
  return HAND_OVER_PERIODS.includes(Number(value) as HandOverPeriod) && String(value).trim() !== "";
}

/** The first reminder goes this many days before the hand-over, the second REMINDER_GAP_DAYS later. */
export const FIRST_REMINDER_DAYS = 30;
/** At least this many days between the reminders, and between the last one and the hand-over. */
export const REMINDER_GAP_DAYS = 7;

export const SUCCESSION_MESSAGES = {
  named: "Successor named",
  cleared: "No successor now",
  periodSaved: "Saved",
  notCoManager: "Choose someone who helps manage this memorial",
  onlyOwner: "Only the owner can name a successor",
  chooseFate: "Choose what happens to this memorial",
  chosenGone: "This person no longer helps manage the memorial. Choose again.",
  changed: "Something changed while you were deciding. Check what happens to each memorial, then delete again.",
} as const;

/** "Hand on to …" or "Delete with my account": the account deletion screen's choice for a memorial with no successor. */
export const DELETE_WITH_ACCOUNT = "delete";
