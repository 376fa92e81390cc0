import { TEST_CARDS, type TestCard } from "~/utils/plans";

/** The built-in provider's saved test cards as radio buttons (README "Plans"): no card, no money. */
export function TestCardChoice({ legend, selected = "ok" }: { legend: string; selected?: TestCard }) {
  return (
    <fieldset>
      <legend className="font-medium text-stone-900">{legend}</legend>
      <div className="mt-2 space-y-2">
        {TEST_CARDS.map((card) => (
          <label key={card.id} className="flex items-start gap-2 text-stone-800">
            <input type="radio" name="testCard" value={card.id} defaultChecked={card.id === selected} className="mt-1" />
            {card.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
