export type LinkedPhoto = { src: string; srcSet?: string; full: string };

/**
 * A photo that is a link to its full-size version, so that without JavaScript it opens larger in the
 * browser; it loads lazily, in a 4:3 box of the width and height given, so nothing jumps as it arrives.
 */
export function PhotoLink({
  photo,
  alt,
  sizes,
  width,
  height,
  className,
  imageClassName,
}: {
  photo: LinkedPhoto;
  alt: string;
  sizes: string;
  width: number;
  height: number;
  className: string;
  imageClassName?: string;
}) {
  return (
    <a href={photo.full} className={className}>
      <img
        src={photo.src}
        srcSet={photo.srcSet}
        sizes={sizes}
        alt={alt}
        width={width}
        height={height}
        loading="lazy"
        decoding="async"
        className={`aspect-[4/3] h-auto w-full object-cover${imageClassName ? ` ${imageClassName}` : ""}`}
      />
      <span className="sr-only">(opens the full-size photo)</span>
    </a>
  );
}
