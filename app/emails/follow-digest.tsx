import { Text } from "@react-email/components";
import { EmailLayout, text, VisitMemorial } from "./layout";

// What is new on a memorial someone follows: the tributes approved and the photos and
// videos added since their last digest, at most one a day, never one email per tribute.

export type FollowDigestProps = {
  firstName: string | null;
  memorialName: string;
  tributes: { authorName: string; excerpt: string }[];
  tributeCount: number;
  photoCount: number;
  memorialUrl: string;
  tributeUrl: string;
  unsubscribeUrl: string;
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function digestSummary({ tributeCount, photoCount }: Pick<FollowDigestProps, "tributeCount" | "photoCount">) {
  const parts = [
    tributeCount ? plural(tributeCount, "new tribute", "new tributes") : null,
    photoCount ? plural(photoCount, "new photo or video", "new photos and videos") : null,
  ];
  return parts.filter(Boolean).join(" and ");
}

export const followDigestSubject = (props: Pick<FollowDigestProps, "memorialName" | "tributeCount" | "photoCount">) =>
  `${digestSummary(props)} on the memorial of ${props.memorialName}`.replace(/^./, (c) => c.toUpperCase());

export function FollowDigestEmail({ firstName, memorialName, tributes, tributeCount, photoCount, memorialUrl, tributeUrl, unsubscribeUrl }: FollowDigestProps) {
  const more = tributeCount - tributes.length;
  return (
    <EmailLayout
      preview={digestSummary({ tributeCount, photoCount })}
      unsubscribeUrl={unsubscribeUrl}
      why={`You are receiving this because you follow the memorial of ${memorialName}. Members can see what they follow in Account → Following.`}
    >
      <Text style={text}>{firstName ? `Dear ${firstName},` : "Hello,"}</Text>
      <Text style={text}>
        Since we last wrote, the memorial of {memorialName} has {digestSummary({ tributeCount, photoCount })}.
      </Text>
      {tributes.map((t, i) => (
        <Text key={i} style={{ ...text, borderLeft: "3px solid #e4cdd7", paddingLeft: "12px" }}>
          “{t.excerpt}” — {t.authorName}
        </Text>
      ))}
      {more > 0 ? <Text style={text}>…and {plural(more, "more tribute", "more tributes")}.</Text> : null}
      <VisitMemorial memorialUrl={memorialUrl} tributeUrl={tributeUrl} tributeLabel="Leave a tribute of your own" />
    </EmailLayout>
  );
}
