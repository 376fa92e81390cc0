import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A memorial's copy is ready to download. Transactional: the owner asked for it.

export type MemorialExportReadyProps = { firstName: string; name: string; exportUrl: string; availableUntil: string };

export const memorialExportReadySubject = ({ name }: Pick<MemorialExportReadyProps, "name">) => `Your copy of the memorial of ${name} is ready`;

export function MemorialExportReadyEmail({ firstName, name, exportUrl, availableUntil }: MemorialExportReadyProps) {
  return (
    <EmailLayout preview="Download it as one ZIP file" why="We send this when a copy of a memorial you asked for is ready.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        The copy of the memorial of {name} that you asked for is ready: one ZIP file with a page that opens on any computer without the internet, the life
        story, the timeline and the events, every photo and video, and the approved tributes.
      </Text>
      <Text style={text}>
        <Link href={exportUrl}>Download your copy</Link> (you will be asked to sign in). It can be downloaded until {availableUntil}; after that, you can ask
        for a new one at any time.
      </Text>
    </EmailLayout>
  );
}
