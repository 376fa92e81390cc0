import { NavLink } from "react-router";

// The tabs of a page whose sections are each their own address (account settings, friends, the admin
// dashboard): plain links, so they work without JavaScript and can be bookmarked, in a labelled <nav>.
// NavLink marks the current tab with aria-current="page"; it is drawn underlined.

export type Tab = {
  to: string;
  label: string;
  /** Shown after the label, e.g. "Requests (2)"; the number in tabular figures so the tabs do not jiggle. */
  count?: number;
  /** Whether the tab is current only on its own address, not on the addresses below it (default true). */
  end?: boolean;
  /** Fetch the tab's page when the pointer rests on it (the admin tabs, visited one after another). */
  prefetch?: "intent";
};

// How much room a tab takes. Account settings' five short tabs have full padding; the friends' three
// shrink on a phone; the admin dashboard's ten wrap onto rows that sit flush under one another.
const SPACING = {
  roomy: { list: "gap-1", tab: "px-4" },
  roomyFromSmall: { list: "gap-1", tab: "px-3 sm:px-4" },
  compact: { list: "gap-x-1", tab: "px-3" },
} as const;

type TabBarProps = {
  /** The <nav>'s accessible name, e.g. "Account settings". */
  label: string;
  tabs: readonly Tab[];
  /** A tab set apart at the far end of the bar (the admin dashboard's Audit log). */
  trailingTab?: Tab;
  spacing?: keyof typeof SPACING;
};

export function TabBar({ label, tabs, trailingTab, spacing = "roomy" }: TabBarProps) {
  const { list, tab: tabPadding } = SPACING[spacing];
  return (
    <nav aria-label={label} className="mt-6 border-b border-stone-200">
      <ul className={`-mb-px flex flex-wrap ${list}`}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <TabLink tab={tab} padding={tabPadding} />
          </li>
        ))}
        {trailingTab ? (
          <li className="ml-auto">
            <TabLink tab={trailingTab} padding={tabPadding} />
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

function TabLink({ tab, padding }: { tab: Tab; padding: string }) {
  return (
    <NavLink
      to={tab.to}
      end={tab.end ?? true}
      prefetch={tab.prefetch}
      className={({ isActive }) =>
        `inline-block rounded-t-md border-b-2 ${padding} py-2 text-sm font-medium ${
          isActive ? "border-heather-700 text-heather-800" : "border-transparent text-stone-700 hover:border-stone-400 hover:text-stone-900"
        }`
      }
    >
      {tab.label}
      {tab.count !== undefined ? <span className="tabular-nums">{` (${tab.count})`}</span> : null}
    </NavLink>
  );
}
