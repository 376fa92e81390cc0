import { data } from "react-router";
import type { Route } from "./+types/memorials.$id.qr";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import { findQrMemorial, qrPreviewSvg } from "~/models/memorials/qr.server";
import { requireUser } from "~/request/auth.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The memorial's permanent link and its QR code
// (docs/decisions/028-permanent-address-and-qr.md), reached from the edit page: the link as text to copy,
// a preview of the code, and its downloads (SVG, PNG, a printable A4 PDF). The owner and co-managers only;
// anyone else signed in gets 404, a visitor is asked to sign in.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const memorial = await findQrMemorial(params.id, user.id);
  if (!memorial) throw data(null, { status: 404 });
  const svg = await qrPreviewSvg(memorial);
  return {
    memorialId: memorial.id,
    name: memorial.name,
    url: memorial.url,
    preview: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

export default function MemorialQrCode({ loaderData }: Route.ComponentProps) {
  const { memorialId, name, url, preview } = loaderData;
  const download = (format: string) => `/memorials/${memorialId}/qr/${format}`;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">QR code and permanent link</h1>
      <p className="mt-2 text-stone-700 wrap-anywhere">
        A link to {name}&apos;s memorial that never changes, even if the name or title is edited. Its QR code can go on a headstone, a plaque, a card or an
        order of service: a phone&apos;s camera opens the memorial.
      </p>
      <MemorialSubpageLinks memorialId={memorialId} />

      <section aria-labelledby="link-heading" className="mt-8">
        <h2 id="link-heading" className="text-xl font-semibold text-stone-900">
          Permanent link
        </h2>
        <p className="mt-2 font-mono text-lg wrap-anywhere">
          <a href={url} className="link">
            {url}
          </a>
        </p>
        <p className="mt-1 text-sm text-stone-700">Copy it to share the memorial anywhere. Who may see the memorial is still up to its settings.</p>
      </section>

      <section aria-labelledby="code-heading" className="mt-8">
        <h2 id="code-heading" className="text-xl font-semibold text-stone-900">
          QR code
        </h2>
        <img src={preview} alt={`QR code that opens ${url}`} width={240} height={240} className="mt-3 h-60 w-60 border border-stone-200" />
        <p className="mt-3 text-sm text-stone-700">
          It still reads when part of it is worn or chipped. Keep the white border around it, and try it with a phone before it is engraved.
        </p>
        <h3 className="mt-6 font-semibold text-stone-900">Download</h3>
        {/* Plain links: a download is a file, not a page (no client navigation). Wrapped rows keep a gap (WCAG 2.5.8). */}
        <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-2">
          <li>
            <a href={download("pdf")} download className="btn-primary">
              Printable sheet (PDF, A4)
            </a>
          </li>
          <li>
            <a href={download("png")} download className="btn-secondary">
              Image (PNG, 1200 px)
            </a>
          </li>
          <li>
            <a href={download("svg")} download className="btn-secondary">
              Vector (SVG, for engravers)
            </a>
          </li>
        </ul>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `QR code for ${d.name} · Everlight` : "Memorial Not Found · Everlight" },
  { name: "robots", content: "noindex" },
];
