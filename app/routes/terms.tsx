import { Link } from "react-router";
import type { Route } from "./+types/terms";
import { OrContactForm } from "~/components/contact-form-link";
import { documentLink, documentStrong, LegalDocument, type DocumentSection } from "~/components/document-page";
import { describePrice, ENDOWMENT_PERCENT, PLANS } from "~/utils/plans";
import { SUPPORT_EMAIL } from "~/utils/site";
import { MODERATION_POLICY } from "~/utils/validation/account-rules";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "document", members: "any" } };

const SECTIONS: DocumentSection[] = [
  {
    id: "acceptance",
    heading: "1. Acceptance of Terms",
    body: (
      <>
        <p>
          These Terms of Service (&ldquo;Terms&rdquo;) form an agreement between you and Everlight (&ldquo;we&rdquo;, &ldquo;us&rdquo;, &ldquo;our&rdquo;) about
          your use of the Everlight website and services, including memorial pages, tributes, the shop, permanence plans and the document vault.
        </p>
        <p>
          By creating an account, or by using Everlight without an account (for example, to visit a memorial or leave a tribute), you agree to these Terms and
          to our{" "}
          <Link to="/privacy" className={documentLink}>
            Privacy Policy
          </Link>
          . If you do not agree, please do not use the service.
        </p>
      </>
    ),
  },
  {
    id: "eligibility",
    heading: "2. Eligibility and Your Account",
    body: (
      <>
        <p>
          You must be at least 13 years old to use Everlight. If you are under 18, you may only use Everlight with the consent and involvement of a parent or
          guardian, who accepts these Terms on your behalf.
        </p>
        <p>
          You are responsible for keeping your login details secure and for activity on your account. Please give accurate information when you register and
          keep it up to date. If you think someone else has accessed your account, contact us straight away.
        </p>
      </>
    ),
  },
  {
    id: "memorials",
    heading: "3. Creating Memorials",
    body: (
      <>
        <p>
          You may create memorials for people who have died. Please only create a memorial where you are a family member, close friend or otherwise have a
          genuine connection to the person, and take care to respect the wishes of their immediate family.
        </p>
        <p>
          New memorials begin as drafts that only you can see. You remain responsible for the accuracy of the information you publish. If a family member raises
          a reasonable concern about a memorial, we may ask you to make changes, or in appropriate cases we may restrict or remove it.
        </p>
      </>
    ),
  },
  {
    id: "visibility",
    heading: "4. Memorial Visibility",
    body: (
      <>
        <p>As the owner of a memorial, you choose who can see it by selecting one of the following visibility levels:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong className={documentStrong}>Public</strong> &ndash; anyone can view the memorial.
          </li>
          <li>
            <strong className={documentStrong}>Unlisted</strong> &ndash; anyone with the link can view the memorial, but it is not listed or searchable on
            Everlight, and search engines are asked not to index it.
          </li>
          <li>
            <strong className={documentStrong}>Friends</strong> &ndash; only people you have accepted as friends can view the memorial.
          </li>
          <li>
            <strong className={documentStrong}>Private</strong> &ndash; only you, the owner, can view the memorial.
          </li>
        </ul>
        <p>{MODERATION_POLICY}</p>
        <p>
          You can change the visibility at any time. Please remember that anyone who can see a memorial may remember or record what they have seen, and we
          cannot control copies made outside Everlight.
        </p>
      </>
    ),
  },
  {
    id: "tributes",
    heading: "5. Tributes and Moderation",
    body: (
      <>
        <p>
          Visitors may leave tributes on memorials they can view. Tributes are moderated by the memorial owner: each new tribute stays hidden until the owner
          approves it, and the owner may decline or later remove any tribute at their discretion.
        </p>
        <p>
          If you leave a tribute, please write with kindness and respect for the person remembered and their family. We may also remove tributes that break
          these Terms, whether or not they have been approved.
        </p>
      </>
    ),
  },
  {
    id: "content",
    heading: "6. Your Content and Licence",
    body: (
      <>
        <p>
          You keep ownership of the words, photographs and other material you add to Everlight (&ldquo;your content&rdquo;). You confirm that you own your
          content or have permission to share it.
        </p>
        <p>
          You give us a non-exclusive, royalty-free licence to store, display, reproduce and adapt your content (for example, resizing photographs) only as
          needed to operate and provide the service, in line with the visibility settings chosen. This licence ends when your content is permanently deleted,
          except where it has been shared by others or we must keep it by law.
        </p>
      </>
    ),
  },
  {
    id: "prohibited",
    heading: "7. Prohibited Content and Conduct",
    body: (
      <>
        <p>You must not use Everlight to post or share content that:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>is unlawful, defamatory, threatening, abusive or hateful;</li>
          <li>mocks, harasses or intrudes upon the bereaved, or disrespects the person being remembered;</li>
          <li>infringes anyone&rsquo;s copyright, privacy or other rights;</li>
          <li>impersonates another person or creates a memorial for someone who is still living;</li>
          <li>contains spam, advertising, malware or links intended to deceive;</li>
          <li>is sexually explicit or graphically violent.</li>
        </ul>
        <p>
          You must also not attempt to gain unauthorised access to accounts, memorials or our systems, or interfere with the service. You can report content
          that concerns you by contacting us.
        </p>
      </>
    ),
  },
  {
    id: "payments",
    heading: "8. Payments, Subscriptions and the Shop",
    body: (
      <>
        <p>
          All prices are shown and charged in pounds sterling (GBP) and include VAT where applicable. Payments are handled securely by our payment processor; we
          do not store your full card details.
        </p>
        <p>
          Where you choose to pay for a plan in monthly instalments, you agree to pay each instalment when it falls due until the agreed number of payments has
          been made. If a payment fails, we will let you know and give you a reasonable opportunity to update your payment details before any paid features are
          paused.
        </p>
        <p>
          As a consumer, you normally have 14 days to cancel a digital service purchase. If you ask us to begin providing the service within that period, you
          may be charged for what you have used. Personalised memorial products made to your specification cannot be returned unless they are faulty. This does
          not affect your statutory rights.
        </p>
        <p>
          Everlight shows no advertising anywhere: not on memorial pages, not in emails, and no one pays us to be shown beside a memorial. The only thing
          offered on a memorial page is a printed book of that memorial, to its family and friends, and the family can turn even that off.
        </p>
      </>
    ),
  },
  {
    id: "forever-plan",
    heading: "9. The Forever Plan and Endowment",
    body: (
      <>
        <p>
          The {PLANS.forever.name} plan ({describePrice(PLANS.forever)}) and {PLANS.forever_plus.name} ({describePrice(PLANS.forever_plus)}) are designed to
          keep memorials available for the long term, without recurring annual fees.
        </p>
        <p>
          {ENDOWMENT_PERCENT}% of each Forever Plan purchase goes to a ring-fenced endowment fund. The fund is held separately from our day-to-day operating
          money and is used only to support the long-term hosting and upkeep of memorials.
        </p>
      </>
    ),
  },
  {
    id: "deletion",
    heading: "10. Deleting Memorials and Accounts",
    body: (
      <>
        <p>
          You may delete a memorial you own, or your whole account, at any time. A deleted memorial or account is hidden at once and kept for 30 days: if you
          change your mind, restore it yourself during that period (My Memorials, Recently deleted; or sign in to the deleted account), or ask us to.
        </p>
        <p>
          You may name a successor for a memorial you own, among the people who help manage it. When you delete your account, or after the absence you chose in
          your account settings (we email you twice first), the memorial passes to your successor, who then owns it under these terms. A memorial that has
          passed to a successor stays with them if you later restore your account.
        </p>
        <p>
          After 30 days, deleted memorials and their tributes are permanently erased and cannot be recovered. Deleting a paid memorial does not by itself
          entitle you to a refund, except where required by law.
        </p>
      </>
    ),
  },
  {
    id: "termination",
    heading: "11. Termination",
    body: (
      <>
        <p>
          We may suspend or close an account, or remove content, if you seriously or repeatedly break these Terms, if we are required to by law, or if it is
          necessary to protect other users or the service. Where it is appropriate and lawful, we will tell you why and give you a chance to respond.
        </p>
        <p>
          If we close your account for reasons other than a breach of these Terms, we will give you reasonable notice and the opportunity to download your
          content.
        </p>
      </>
    ),
  },
  {
    id: "liability",
    heading: "12. Limitation of Liability",
    body: (
      <>
        <p>
          We take great care to keep Everlight available and your content safe, but we cannot guarantee that the service will always be uninterrupted or free
          from errors. We recommend keeping your own copies of important photographs and documents.
        </p>
        <p>
          We are not responsible for losses that were not foreseeable, for content posted by other users, or for business losses. Where we are liable, our total
          liability to you is limited to the amount you have paid us in the 12 months before the claim arose.
        </p>
        <p>
          Nothing in these Terms limits or excludes our liability for death or personal injury caused by our negligence, for fraud, or for anything else that
          cannot be limited or excluded under the law of England and Wales, including your statutory rights as a consumer.
        </p>
      </>
    ),
  },
  {
    id: "changes",
    heading: "13. Changes to These Terms",
    body: (
      <>
        <p>
          We may update these Terms from time to time, for example to reflect changes to our service or to the law. The date at the top of this page shows when
          they were last updated.
        </p>
        <p>
          If we make a significant change, we will let you know by email or through the service, giving you reasonable notice before it takes effect. If you do
          not agree to the changes, you may close your account before then.
        </p>
      </>
    ),
  },
  {
    id: "governing-law",
    heading: "14. Governing Law",
    body: (
      <>
        <p>
          These Terms are governed by the law of England and Wales, and the courts of England and Wales will have jurisdiction over any dispute. If you live in
          Scotland or Northern Ireland, you may also bring proceedings in your local courts.
        </p>
        <p>If something goes wrong, please contact us first. We will always try to resolve concerns quickly and fairly.</p>
      </>
    ),
  },
  {
    id: "contact",
    heading: "15. Contact Us",
    body: (
      <p>
        If you have any questions about these Terms, please email us at{" "}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={documentLink}>
          {SUPPORT_EMAIL}
        </a>
        <OrContactForm className={documentLink} />.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalDocument
      id="terms"
      title="Terms of Service"
      intro={
        <p>
          Thank you for choosing Everlight to remember someone you love. These Terms explain how our service works and what we ask of everyone who uses it. We
          have tried to keep them clear and brief.
        </p>
      }
      sections={SECTIONS}
    />
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Terms of Service · Everlight" },
  {
    name: "description",
    content:
      "The terms that apply when you use Everlight to create memorials, leave tributes, buy memorial products and plans, and store documents in the vault.",
  },
];
