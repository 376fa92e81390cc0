import { formatLongDate } from "~/utils/dates";
import type { BiographyFacts, TributeFacts, TributeTone } from "~/utils/validation/ai";

// Everlight's built-in writer, so that without an OpenAI key the writing helpers still work.
// It composes text only from the facts it is given: the names, the dates (formatted as the site writes
// them, "March 4, 1950"), the story, the qualities, the relationship and the memories, set in fixed sentences that
// introduce no name, date, place or event of their own. It never guesses a gender either: it uses the
// person's name, never "he" or "she". No randomness, so the same facts always give the same text (and
// tests are stable); the caller labels the result as the offline writer's.

/** "1950-03-04" → "March 4, 1950" (UTC: a date of birth is a calendar day, not an instant). */
export function formatFactDate(iso: string | null | undefined): string {
  return iso ? formatLongDate(iso.slice(0, 10)) : "";
}

/** Whole years between two ISO dates, or null when either is missing or they are out of order. */
function ageAt(birth: string | null, passing: string | null): number | null {
  if (!birth || !passing || passing < birth) return null;
  const [by, bm, bd] = birth.split("-").map(Number);
  const [py, pm, pd] = passing.split("-").map(Number);
  return py - by - (pm < bm || (pm === bm && pd < bd) ? 1 : 0);
}

/** Whitespace collapsed (a paragraph break becomes a space: the writer decides the paragraphs). */
function clean(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** The text as a sentence: a capital first letter and closing punctuation. */
function asSentence(text: string): string {
  const t = clean(text).replace(/[,;:\s]+$/, "");
  if (!t) return "";
  const first = t.charAt(0).toLocaleUpperCase("en-GB") + t.slice(1);
  return /[.!?…]["'”’)\]]*$/.test(first) ? first : `${first}.`;
}

/** British possessive: "Edith's", "James's". */
function possessive(name: string): string {
  return `${name}'s`;
}

/** "kind", "kind and generous", "kind, generous and funny" (no serial comma, as in British usage). */
function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "kind, generous and funny; loyal" → ["kind", "generous", "funny", "loyal"], each once. */
export function splitQualities(text: string | null | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of (text ?? "").split(/,|;|\n|&|\/|\band\b/i)) {
    const q = clean(part).replace(/^[-•*\s]+|[.!?\s]+$/g, "");
    if (q && !seen.has(q.toLowerCase())) {
      seen.add(q.toLowerCase());
      out.push(q);
    }
  }
  return out;
}

/** One memory a line; bullet marks dropped. A single block of text is one memory. */
export function splitMemories(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => clean(line.replace(/^\s*(?:[-•*]|\d+[.)])\s+/, "")))
    .filter(Boolean);
}

// Words that name a relationship and read better in lower case mid-sentence ("As Edith Hart's
// granddaughter"), however they were typed. Anything else is kept exactly as typed (it may be a name).
const RELATIONSHIP_WORDS = new Set(
  "friend best close old dear granddaughter grandson grandchild grandchildren daughter son child niece nephew cousin brother sister sibling husband wife partner mother father mum mom dad mummy daddy grandmother grandfather grandma grandad granddad granny nan nana grandpa aunt auntie uncle godchild goddaughter godson godmother godfather neighbour neighbor colleague pupil student teacher carer nurse stepdaughter stepson stepmother stepfather daughter-in-law son-in-law sister-in-law brother-in-law mother-in-law father-in-law great-granddaughter great-grandson former lifelong childhood school work university".split(
    " ",
  ),
);

/** "I was her Granddaughter." → "granddaughter"; keeps anything it does not recognise as typed. */
export function cleanRelationship(text: string): string {
  const stripped = clean(text)
    .replace(/[.!]+$/, "")
    .replace(/^(?:i\s+am|i'm|i\s+was|i’m)\s+/i, "")
    .replace(/^(?:his|her|their|my|a|an|the)\s+/i, "");
  const rel = stripped || clean(text);
  const [first, ...rest] = rel.split(" ");
  return RELATIONSHIP_WORDS.has(first.toLowerCase()) ? [first.toLowerCase(), ...rest].join(" ") : rel;
}

// ───────────────────────────── biography ─────────────────────────────

/** Two or three paragraphs: who and when; their story in their family's words; what they were like. */
export function writeBiography(facts: BiographyFacts): string {
  const first = clean(facts.firstName);
  const full = `${first} ${clean(facts.lastName)}`;
  const born = formatFactDate(facts.dateOfBirth);
  const died = formatFactDate(facts.dateOfPassing);
  const age = ageAt(facts.dateOfBirth, facts.dateOfPassing);

  let intro: string;
  if (born && died) {
    intro = `${full} was born on ${born} and passed away on ${died}${age !== null ? `, aged ${age}` : ""}. This is the story of ${possessive(first)} life, told with love.`;
  } else if (born) {
    intro = `${full} was born on ${born}. This is the story of ${possessive(first)} life, told with love.`;
  } else if (died) {
    intro = `${full} passed away on ${died}. This is the story of ${possessive(first)} life, told with love.`;
  } else {
    intro = `This is the story of ${full}, told with love.`;
  }

  const story = asSentence(facts.personalStory);
  const qualities = splitQualities(facts.keyQualities);
  const closing = [
    qualities.length ? `Ask anyone who knew ${first}, and the same words come back: ${listOf(qualities)}.` : "",
    `${first} is deeply missed and will always be remembered.`,
  ]
    .filter(Boolean)
    .join(" ");

  return [intro, story, closing].filter(Boolean).join("\n\n");
}

// ───────────────────────────── tribute ─────────────────────────────

type Voice = {
  opening: (name: string, first: string, relationship: string) => string;
  leadIn: (first: string) => string;
  closing: (first: string) => string;
};

// One voice per tone. The sentences speak of feelings and of the person by name, never of facts.
const VOICES: Record<TributeTone, Voice> = {
  warm: {
    opening: (name, first, rel) => `As ${possessive(name)} ${rel}, I feel so lucky to have had ${first} in my life.`,
    leadIn: () => "There is so much I will hold close.",
    closing: (first) => `Thank you for everything, ${first}. You will always be in my heart.`,
  },
  respectful: {
    opening: (name, first, rel) => `As ${possessive(name)} ${rel}, I would like to pay my respects and give thanks for ${possessive(first)} life.`,
    leadIn: () => "I remember with gratitude the times we shared.",
    closing: (first) => `May ${first} rest in peace, and may all who mourn find comfort in their memories.`,
  },
  celebratory: {
    opening: (name, _first, rel) => `As ${possessive(name)} ${rel}, I want to celebrate a life that brought so much joy.`,
    leadIn: (first) => `There is so much to smile about when I think of ${first}.`,
    closing: (first) => `Here's to ${first}, and to a life well lived!`,
  },
  gentle: {
    opening: (name, first, rel) => `As ${possessive(name)} ${rel}, I can't think of ${first} without smiling.`,
    leadIn: () => "A few memories still make me grin.",
    closing: (first) => `Rest easy, ${first}. The stories will keep being told, and the laughter with them.`,
  },
};

/**
 * The tribute as a list of sentences (joined with spaces it is the tribute; streamed, one at a time).
 * With a relationship: the visitor's own voice, in the chosen tone, around their memories. Without:
 * a few lines in memory of the person from the key details given. The memorial's biography and title
 * are background for a language model; this writer does not retell them.
 */
export function tributeSentences(facts: TributeFacts): string[] {
  const name = clean(facts.name);
  const first = clean(facts.firstName) || name.split(" ")[0];
  const voice = VOICES[facts.tone ?? "warm"];
  const memories = splitMemories(facts.memories).map(asSentence);
  if (facts.relationship && clean(facts.relationship)) {
    return [
      voice.opening(name, first, cleanRelationship(facts.relationship)),
      ...(memories.length ? [voice.leadIn(first), ...memories] : []),
      voice.closing(first),
    ];
  }
  const details = asSentence(facts.keyDetails ?? "");
  return [`In loving memory of ${name}.`, ...(details ? [details] : []), ...memories, `${first} is deeply missed and will always be remembered with love.`];
}

/** One paragraph. */
export function writeTribute(facts: TributeFacts): string {
  return tributeSentences(facts).join(" ");
}
