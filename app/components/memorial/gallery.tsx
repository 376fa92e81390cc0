import { useState } from "react";
import { PhotoLink } from "./photo-link";

export type GalleryItem = { id: string; mediaType: string; caption: string | null; src: string; srcSet?: string; full: string };

// Photos and videos of a memorial. Each photo is a link to its large version, so without JavaScript it
// opens larger in the browser; videos play with the browser's own accessible controls. Images below
// the fold load lazily, with width and height set so nothing jumps as they arrive.
export function Gallery({ items, name }: { items: GalleryItem[]; name: string }) {
  const photos = items.filter((i) => i.mediaType.startsWith("image/"));
  const videos = items.filter((i) => i.mediaType.startsWith("video/"));
  return (
    <section aria-labelledby="gallery-heading" className="render-when-near mt-10">
      <h2 id="gallery-heading" className="text-2xl font-semibold text-stone-900">
        Photos and videos
      </h2>
      {photos.length ? (
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <PhotoLink
                photo={photo}
                alt={photo.caption || `Photo ${index + 1} of ${name}`}
                sizes="(min-width: 1024px) 300px, (min-width: 640px) 33vw, 50vw"
                width={480}
                height={360}
                className="block overflow-hidden rounded-lg bg-stone-100"
                imageClassName="transition-transform hover:scale-105"
              />
              {photo.caption ? <p className="mt-1 text-sm text-stone-700">{photo.caption}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {videos.length ? (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {videos.map((video, index) => (
            <li key={video.id}>
              <VideoPlayer src={video.src} label={video.caption || `Video ${index + 1} of ${name}`} />
              {video.caption ? <p className="mt-1 text-sm text-stone-700">{video.caption}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function VideoPlayer({ src, label }: { src: string; label: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <figure>
      {/* A family's own video comes with no captions file to give; its label and a download link stand in. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <video controls preload="metadata" src={src} aria-label={label} onError={() => setFailed(true)} className="aspect-video w-full rounded-lg bg-black">
        <a href={src}>Download the video: {label}</a>
      </video>
      <figcaption className="sr-only">{label}</figcaption>
      {failed ? (
        <p className="mt-1 text-sm text-stone-700">
          This video cannot play in your browser.{" "}
          <a className="link" href={src}>
            Download it
          </a>{" "}
          instead.
        </p>
      ) : null}
    </figure>
  );
}
