import { useEffect, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/help";
import { OrContactForm } from "~/components/contact-form-link";
import { DocumentPage, documentLink } from "~/components/document-page";
import { Question, Questions } from "~/components/questions";
import { describePrice, ENDOWMENT_PERCENT, FREE_MEMORIAL_LIMIT, PLANS } from "~/utils/plans";
import { SUPPORT_EMAIL, SUPPORT_HOURS } from "~/utils/site";
import { MODERATION_POLICY } from "~/utils/validation/account-rules";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "document", members: "any" } };

type Faq = {
  id: string;
  question: string;
  answer: ReactNode;
};

const FAQS: Faq[] = [
  {
    id: "create-memorial",
    question: "How do I create a memorial?",
    answer: (
      <>
        <p>
          Sign in to your account, or create one for free, and choose &ldquo;Create a memorial&rdquo;. Add your loved one&rsquo;s name and the dates of their
          life, then write as much or as little of their story as feels right. You can add more at any time.
        </p>
        <p>
          A new memorial starts as a draft, which only you can see. Take all the time you need: when you are ready, choose who can view it and publish it. You
          can edit the memorial, change its visibility or return it to draft whenever you wish.
        </p>
      </>
    ),
  },
  {
    id: "who-can-see",
    question: "Who can see a memorial?",
    answer: (
      <>
        <p>You decide. Every memorial has one of four visibility settings:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong className="font-semibold text-stone-900">Public</strong> &ndash; anyone with the link can visit the memorial.
          </li>
          <li>
            <strong className="font-semibold text-stone-900">Unlisted</strong> &ndash; anyone you give the link to can visit it, but it does not appear in
            lists, search or search engines.
          </li>
          <li>
            <strong className="font-semibold text-stone-900">Friends Only</strong> &ndash; only people you have accepted as friends can visit it.
          </li>
          <li>
            <strong className="font-semibold text-stone-900">Private</strong> &ndash; only you can see it.
          </li>
        </ul>
        <p>{MODERATION_POLICY}</p>
        <p>Drafts are always visible only to you, whatever visibility you have chosen, until you publish them.</p>
      </>
    ),
  },
  {
    id: "tributes",
    question: "How are tributes moderated?",
    answer: (
      <>
        <p>
          Visitors can leave a tribute &ndash; a memory, a message of condolence or a few words of thanks. Every new tribute is hidden until the
          memorial&rsquo;s owner approves it, so nothing appears on the page without the family&rsquo;s agreement.
        </p>
        <p>
          As the owner, you will find tributes waiting for review on your memorial. You can approve them, or decline any you would rather not show. You can also
          remove a tribute you have previously approved.
        </p>
      </>
    ),
  },
  {
    id: "plans",
    question: "What does the Free plan include, and how do the paid plans differ?",
    answer: (
      <>
        <p>
          The <strong className="font-semibold text-stone-900">Free</strong> plan lets you create up to {FREE_MEMORIAL_LIMIT} memorials, with all the visibility
          settings and tribute moderation described above.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong className="font-semibold text-stone-900">{PLANS.forever.name}</strong> &ndash; {describePrice(PLANS.forever)}. Designed to keep memorials
            available for the long term.
          </li>
          <li>
            <strong className="font-semibold text-stone-900">{PLANS.forever_plus.name}</strong> &ndash; {describePrice(PLANS.forever_plus)}. Everything in
            Forever, plus the encrypted document vault.
          </li>
        </ul>
        <p>
          {ENDOWMENT_PERCENT}% of every Forever plan purchase is placed in a ring-fenced endowment fund that supports the long-term upkeep of memorials (
          <Link to="/endowment" className={documentLink}>
            its public report
          </Link>
          ). All prices are in pounds sterling (GBP). Full details are in our{" "}
          <Link to="/terms" className={documentLink}>
            Terms of Service
          </Link>
          .
        </p>
      </>
    ),
  },
  {
    id: "vault",
    question: "How does the encrypted vault work?",
    answer: (
      <>
        <p>
          The vault, included with Forever Plus with Vault, is a private place to keep important documents such as a will, funeral wishes, insurance details or
          letters to loved ones.
        </p>
        <p>
          Files are sent to us over an encrypted connection and stored encrypted with AES-256, a widely trusted encryption standard. The vault is never shown on
          a memorial page and is available only when you are signed in to your account. You can download or delete your documents at any time. Our{" "}
          <Link to="/privacy" className={documentLink}>
            Privacy Policy
          </Link>{" "}
          explains how we protect this information.
        </p>
      </>
    ),
  },
  {
    id: "delete",
    question: "How do I delete a memorial or my account?",
    answer: (
      <>
        <p>
          To delete a memorial, open it while signed in, go to its settings and choose to delete it. To close your account, go to your account settings and
          choose to delete your account. A memorial with a successor passes to them instead of being deleted; for one that others help manage, you choose
          whether it passes to one of them or is deleted; the rest are deleted with your account.
        </p>
        <p>
          We understand these decisions are sometimes made in difficult moments, so deleted memorials and accounts are kept, hidden, for 30 days. To bring back
          a memorial, open My Memorials and choose Restore under Recently deleted; to bring back your account, sign in to it and choose Restore my account. We
          email you a few days before the 30 days are over. After that they are permanently erased, files included, and cannot be recovered.
        </p>
        <p>
          To choose who looks after a memorial when you no longer can, invite family or friends to help manage it (its People page, from My Memorials) and make
          one of them its successor. It then passes to them if you delete your account, or if we have not seen you for the time you choose in your account
          settings; before that happens because you have been away, we email you twice, and simply signing in stops it.
        </p>
      </>
    ),
  },
];

export default function HelpPage() {
  useAnswerInAddressOpens();
  return (
    <DocumentPage
      title="Help Center"
      intro={<p>Answers to the questions families ask us most often. If you cannot find what you are looking for, we are here to help.</p>}
    >
      <section aria-labelledby="faq-heading" className="mt-10">
        <h2 id="faq-heading" className="text-2xl font-semibold tracking-tight text-stone-900">
          Frequently asked questions
        </h2>
        <Questions className="mt-6">
          {FAQS.map((faq) => (
            <Question key={faq.id} question={faq.question}>
              {/* The answer carries the address (/help#plans): a link to it opens its question (browsers
                  reveal a closed <details> holding the target), and the scroll margin keeps the question
                  in view above it. */}
              <div id={faq.id} className="scroll-mt-40 space-y-3 px-5 pb-5 leading-relaxed text-stone-700">
                {faq.answer}
              </div>
            </Question>
          ))}
        </Questions>
      </section>

      <section aria-labelledby="still-need-help-heading" className="mt-12 rounded-lg bg-stone-50 p-6">
        <h2 id="still-need-help-heading" className="text-xl font-semibold tracking-tight text-stone-900">
          Still need help?
        </h2>
        <p className="mt-3 leading-relaxed text-stone-700">
          Our support team is happy to help with anything, however small. Email us at{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`} className={documentLink}>
            {SUPPORT_EMAIL}
          </a>
          <OrContactForm className={documentLink} />.
        </p>
        <p className="mt-3 leading-relaxed text-stone-700">Support hours: {SUPPORT_HOURS}.</p>
      </section>
    </DocumentPage>
  );
}

/**
 * A link to one answer (/help#plans) opens its question with JavaScript too: browsers reveal a closed
 * <details> holding the target of a page load's #fragment, but not when the router scrolls to it.
 */
function useAnswerInAddressOpens() {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    const details = target?.closest("details");
    if (!target || !details || details.open) return;
    details.open = true;
    target.scrollIntoView();
  }, [hash]);
}

export const meta: Route.MetaFunction = () => [
  { title: "Help Center · Everlight" },
  {
    name: "description",
    content:
      "Answers to common questions about creating memorials, privacy settings, tribute moderation, plans, the encrypted vault and deleting your account.",
  },
];
