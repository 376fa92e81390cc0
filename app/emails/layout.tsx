import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { SITE_NAME } from "~/utils/site";

// The frame of every Everlight email: readable on a phone, plain type, the product's name, no
// images and no tracking pixels. Styles are inline, as mail programs need.

const page = { backgroundColor: "#fafaf9", fontFamily: "Georgia, 'Times New Roman', serif", color: "#292524", margin: 0, padding: "24px 0" };
const card = { backgroundColor: "#ffffff", border: "1px solid #e7e5e4", borderRadius: "8px", maxWidth: "560px", margin: "0 auto", padding: "32px" };
const brand = { fontSize: "18px", fontWeight: "bold" as const, color: "#50293c", margin: "0 0 24px" };
const small = { fontSize: "13px", lineHeight: "20px", color: "#57534e" };

export const text = { fontSize: "16px", lineHeight: "26px", margin: "0 0 16px" };
export const button = {
  backgroundColor: "#7c355a",
  borderRadius: "6px",
  color: "#ffffff",
  display: "inline-block",
  fontFamily: "Arial, Helvetica, sans-serif",
  fontSize: "16px",
  fontWeight: "bold" as const,
  padding: "12px 20px",
  textDecoration: "none",
};

export function EmailLayout({ preview, children, unsubscribeUrl, why }: { preview: string; children: ReactNode; unsubscribeUrl?: string; why: string }) {
  return (
    <Html lang="en-GB">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Text style={brand}>{SITE_NAME}</Text>
          {children}
          <Hr style={{ borderColor: "#e7e5e4", margin: "32px 0 16px" }} />
          <Section>
            <Text style={small}>{why}</Text>
            {unsubscribeUrl ? (
              <Text style={small}>
                Don&apos;t want these emails? <Link href={unsubscribeUrl}>Unsubscribe with one click</Link>.
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** How an email about a memorial ends for its follower: the button to visit it, and a link to leave a tribute. */
export function VisitMemorial({ memorialUrl, tributeUrl, tributeLabel }: { memorialUrl: string; tributeUrl: string; tributeLabel: string }) {
  return (
    <>
      <Text style={text}>
        <Link href={memorialUrl} style={button}>
          Visit the memorial
        </Link>
      </Text>
      <Text style={text}>
        <Link href={tributeUrl}>{tributeLabel}</Link>
      </Text>
    </>
  );
}

/** The button that ends every email about a member's plan. */
export function SeeYourPlan({ href }: { href: string }) {
  return (
    <Link href={href} style={button}>
      See your plan
    </Link>
  );
}
