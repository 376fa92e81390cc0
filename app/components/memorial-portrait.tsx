import { ImageWithFallback, type ImageWithFallbackProps } from "~/components/image-with-fallback";
import { PLACEHOLDER_PORTRAIT } from "~/utils/site";

/**
 * A memorial's profile picture, or the portrait placeholder when there is none or it fails to load: the
 * one component for every picture of a person (cards, lists, the memorial page). `alt` describes the
 * person, e.g. "Portrait of Margaret Ellis".
 */
export function MemorialPortrait(props: ImageWithFallbackProps) {
  return <ImageWithFallback {...props} placeholder={PLACEHOLDER_PORTRAIT} />;
}
