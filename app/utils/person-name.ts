// Whom a news article is about: obituary and tribute headlines name one person in a few
// common shapes ("Obituary: Jane Smith", "Jane Smith obituary", "Jane Smith, 1931–2024", "Tributes paid
// to Jane Smith", "Jane Smith dies aged 92"). A headline in none of these shapes names nobody we can be
// sure of, and then no memorial is drafted from it: better none than one for the wrong words.

const WORD = String.raw`(?:[A-Z][a-z]*\.|(?:Mc|Mac|O['’]|D['’])?[A-Z][a-zà-ÿ'’]+(?:-[A-Z][a-zà-ÿ'’]+)?)`;
const NAME = String.raw`(${WORD}(?:\s+(?:de|van|von|der|da|le|la)?\s*${WORD}){1,4})`;
const TITLES = /^(?:Sir|Dame|Lord|Lady|Dr|Dr\.|Professor|Prof\.?|Rev\.?|Reverend|Canon|Captain|Capt\.?|Mr|Mrs|Ms|Miss)\s+/;

/** Headlines that start by saying what they are: the name follows. */
const LEAD =
  /^(?:obituary|obituaries|in memoriam|in memory of|remembering|remembered|a tribute to|tribute to|tributes (?:are )?paid to|farewell to|death of|rip)\s*[:\-–—,]?\s*/i;
const NAME_FIRST = new RegExp(String.raw`^${NAME}(?=$|[\s,:;.!?(–—-])`);
/** Headlines that start with the name and then say what they are. */
const NAME_THEN = new RegExp(
  String.raw`^${NAME}\s*[:,\-–—]?\s*(?:[Oo]bituary|\(?(?:1[89]|20)\d\d\s*[-–—]\s*(?:1[89]|20)\d\d\)?|[Dd]ies|[Dd]ied|has died|dead at|passes away|passed away|remembered|aged \d)`,
);

/** Words that start headlines but are not names. */
const NOT_NAMES = new Set([
  "The",
  "A",
  "An",
  "Our",
  "Local",
  "Village",
  "Town",
  "City",
  "Community",
  "Family",
  "Friends",
  "Tributes",
  "Obituary",
  "Funeral",
  "Memorial",
  "Why",
  "How",
  "What",
  "When",
]);

export function personNameFrom(headline: string): string | null {
  const text = headline.replace(/\s+/g, " ").trim();
  const lead = LEAD.exec(text);
  const candidates = [lead ? NAME_FIRST.exec(text.slice(lead[0].length))?.[1] : undefined, NAME_THEN.exec(text)?.[1]];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const name = candidate.replace(TITLES, "").trim();
    const words = name.split(" ");
    if (words.length < 2 || NOT_NAMES.has(words[0]) || words.some((w) => /^(?:Obituary|Dies|Died)$/i.test(w))) continue;
    return name;
  }
  return null;
}

/** "Mary Anne Jones" → first name "Mary Anne", last name "Jones". */
export function splitPersonName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/);
  if (words.length === 1) return { firstName: words[0], lastName: "" };
  return { firstName: words.slice(0, -1).join(" "), lastName: words.at(-1)! };
}
