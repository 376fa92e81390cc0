import { Link } from "react-router";
import type { Route } from "./+types/privacy";
import { OrContactForm } from "~/components/contact-form-link";
import { documentLink, documentStrong, LegalDocument, type DocumentSection } from "~/components/document-page";
import { SUPPORT_EMAIL } from "~/utils/site";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "document", members: "any" } };

const SECTIONS: DocumentSection[] = [
  {
    id: "information-we-collect",
    heading: "1. Information We Collect",
    body: (
      <>
        <p>We collect only what we need to provide Everlight:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong className={documentStrong}>Account information</strong> &ndash; your name, email address and password (which we store only in a securely
            hashed form).
          </li>
          <li>
            <strong className={documentStrong}>Memorial content</strong> &ndash; the names, dates, stories, photographs and tributes that you and others add to
            memorials.
          </li>
          <li>
            <strong className={documentStrong}>Vault documents</strong> &ndash; files you choose to store in your encrypted vault.
          </li>
          <li>
            <strong className={documentStrong}>Order and payment details</strong> &ndash; what you bought, your delivery address and payment status. Card
            details are handled by our payment processor, not by us.
          </li>
          <li>
            <strong className={documentStrong}>Communications</strong> &ndash; messages you send to our support team.
          </li>
          <li>
            <strong className={documentStrong}>Usage data</strong> &ndash; basic technical information such as your IP address, browser type and the pages you
            visit, used to keep the service secure and working.
          </li>
        </ul>
        <p>
          Memorials often contain information about people who have died. Although data protection law does not generally apply to deceased people, we treat
          this information with the same care as any other.
        </p>
      </>
    ),
  },
  {
    id: "how-we-use",
    heading: "2. How We Use Your Information",
    body: (
      <>
        <p>We use your information to:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>create and manage your account and memorials;</li>
          <li>show memorials and approved tributes to the people you have chosen;</li>
          <li>process orders and payments, and deliver memorial products;</li>
          <li>store and protect documents in your vault;</li>
          <li>reply to your questions and send important service messages;</li>
          <li>keep Everlight secure and prevent misuse.</li>
        </ul>
        <p>We do not sell your personal information, and we do not use it for advertising.</p>
      </>
    ),
  },
  {
    id: "legal-bases",
    heading: "3. Legal Bases for Processing",
    body: (
      <>
        <p>Under the UK General Data Protection Regulation (UK GDPR), we rely on the following legal bases:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong className={documentStrong}>Contract</strong> &ndash; to provide the account, memorials, plans and products you have asked for.
          </li>
          <li>
            <strong className={documentStrong}>Legitimate interests</strong> &ndash; to keep the service secure, prevent abuse and improve how it works, in ways
            you would reasonably expect.
          </li>
          <li>
            <strong className={documentStrong}>Legal obligation</strong> &ndash; to keep financial records and respond to lawful requests.
          </li>
          <li>
            <strong className={documentStrong}>Consent</strong> &ndash; where we ask for it, such as for optional emails. You can withdraw consent at any time.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "sharing",
    heading: "4. Sharing Your Information",
    body: (
      <>
        <p>We share personal information only with trusted service providers who help us run Everlight, and only as much as they need:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong className={documentStrong}>Our payment processor</strong>, which securely handles card payments and instalments.
          </li>
          <li>
            <strong className={documentStrong}>Our hosting provider</strong>, which stores our data and runs our servers.
          </li>
        </ul>
        <p>
          These providers act on our instructions and are bound by contracts that require them to protect your information. We may also disclose information
          where the law requires it, for example in response to a court order.
        </p>
      </>
    ),
  },
  {
    id: "memorial-visibility",
    heading: "5. Memorial Visibility",
    body: (
      <>
        <p>
          Memorial owners choose who can see each memorial. A <strong className={documentStrong}>Public</strong> memorial can be seen by anyone; a{" "}
          <strong className={documentStrong}>Friends Only</strong> memorial only by people the owner has accepted as friends; and a{" "}
          <strong className={documentStrong}>Private</strong> memorial only by the owner. Drafts are visible only to the owner.
        </p>
        <p>
          An <strong className={documentStrong}>Unlisted</strong> memorial can be seen by anyone who has its link, but it is not shown in any list or search on
          Everlight, is left out of our sitemap, and search engines are asked not to index it.
        </p>
        <p>
          If you leave a tribute, it stays hidden until the memorial owner approves it. Once approved, your tribute and the name you give will be visible to
          anyone who can see that memorial.
        </p>
      </>
    ),
  },
  {
    id: "vault",
    heading: "6. The Document Vault",
    body: (
      <>
        <p>
          Documents in your vault are sent over an encrypted connection and stored encrypted with AES-256. The vault is never displayed on a memorial page and
          can be accessed only through your signed-in account.
        </p>
        <p>
          We do not look at the contents of your vault, and we never use vault documents for any purpose other than storing them safely for you. You can
          download or delete them at any time.
        </p>
      </>
    ),
  },
  {
    id: "retention",
    heading: "7. How Long We Keep Information",
    body: (
      <>
        <p>We keep personal information only for as long as we need it:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>
            Account information and memorials are kept while your account is active. We note the day you last visited while signed in, so that, if you ask for
            it, your memorials can pass to the successors you named after the absence you chose.
          </li>
          <li>
            Deleted memorials and accounts are hidden at once, kept for 30 days so that they can be restored, and then permanently erased, files included.
          </li>
          <li>Usage data is kept for up to 2 years.</li>
          <li>Communication records are kept for up to 3 years.</li>
          <li>Order and payment records are kept for as long as tax and accounting law requires.</li>
        </ul>
      </>
    ),
  },
  {
    id: "your-rights",
    heading: "8. Your Rights",
    body: (
      <>
        <p>Under UK data protection law, you have the right to:</p>
        <ul className="list-disc space-y-2 pl-5">
          <li>access the personal information we hold about you;</li>
          <li>have inaccurate information corrected;</li>
          <li>have your information erased;</li>
          <li>restrict or object to how we use your information;</li>
          <li>receive your information in a portable format (data portability);</li>
          <li>withdraw consent where we rely on it.</li>
        </ul>
        <p>
          To make a request, email us at{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`} className={documentLink}>
            {SUPPORT_EMAIL}
          </a>
          . We reply to privacy requests within 30 days. There is normally no charge, and we may ask you to confirm your identity first.
        </p>
      </>
    ),
  },
  {
    id: "cookies",
    heading: "9. Cookies",
    body: (
      <p>
        We use a single session cookie, which keeps you signed in as you move between pages. It is strictly necessary for the service to work, so it does not
        require your consent. We do not use analytics, advertising or tracking cookies.
      </p>
    ),
  },
  {
    id: "children",
    heading: "10. Children",
    body: (
      <p>
        You must be at least 13 years old to use Everlight, and anyone under 18 needs the consent of a parent or guardian. We do not knowingly collect
        information from children under 13. If you believe a child under 13 has given us their information, please contact us and we will delete it.
      </p>
    ),
  },
  {
    id: "international-transfers",
    heading: "11. International Transfers",
    body: (
      <p>
        Some of our service providers may process information outside the United Kingdom. When this happens, we make sure your information is protected to UK
        standards &ndash; for example, by transferring it only to countries the UK recognises as providing adequate protection, or by using the International
        Data Transfer Agreement or other safeguards approved under UK law.
      </p>
    ),
  },
  {
    id: "contact-complaints",
    heading: "12. Contact and Complaints",
    body: (
      <>
        <p>
          Everlight is responsible for your personal information as data controller. If you have any questions about this policy or how we handle your
          information, email us at{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`} className={documentLink}>
            {SUPPORT_EMAIL}
          </a>
          <OrContactForm className={documentLink} />.
        </p>
        <p>
          If you are unhappy with how we have handled your information, you have the right to complain to the Information Commissioner&rsquo;s Office (ICO), the
          UK&rsquo;s data protection regulator, at{" "}
          <a href="https://ico.org.uk/make-a-complaint/" className={documentLink}>
            ico.org.uk
          </a>{" "}
          or by calling 0303 123 1113. We would appreciate the chance to put things right first.
        </p>
      </>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalDocument
      id="privacy"
      title="Privacy Policy"
      intro={
        <p>
          Families trust us with precious memories and personal information. This policy explains what we collect, why we collect it, how we keep it safe and
          the choices you have. Please also read our{" "}
          <Link to="/terms" className={documentLink}>
            Terms of Service
          </Link>
          .
        </p>
      }
      sections={SECTIONS}
    />
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Privacy Policy · Everlight" },
  {
    name: "description",
    content:
      "How Everlight collects, uses and protects personal information under UK GDPR, including memorial visibility, the encrypted vault, retention and your rights.",
  },
];
