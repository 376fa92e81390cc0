import { ImageWithFallback, type ImageWithFallbackProps } from "~/components/image-with-fallback";
import { initialsPortrait } from "~/utils/initials-portrait";
import { PLACEHOLDER_PORTRAIT } from "~/utils/site";

/**
 * A memorial's profile picture: the one component for every picture of a person (cards, lists, the
 * memorial page), described as "Portrait of {name}". With no photograph it shows the person's initials
 * on a warm tint; a photograph that fails to load shows the portrait placeholder.
 */
export function MemorialPortrait({ name, ...props }: Omit<ImageWithFallbackProps, "alt"> & { name: string }) {
  return <ImageWithFallback {...props} alt={`Portrait of ${name}`} placeholder={PLACEHOLDER_PORTRAIT} empty={initialsPortrait(name)} />;
}
