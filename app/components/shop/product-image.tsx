import { ImageWithFallback, type ImageWithFallbackProps } from "~/components/image-with-fallback";
import { PLACEHOLDER_PRODUCT } from "~/utils/site";

/**
 * A product's picture, or the product placeholder when there is none or it fails to load (a broken
 * image falls back to a placeholder picture); .product-fallback in app.css draws the same
 * placeholder when the picture fails without JavaScript.
 */
export function ProductImage(props: ImageWithFallbackProps) {
  return <ImageWithFallback {...props} placeholder={PLACEHOLDER_PRODUCT} fallbackClass="product-fallback" />;
}
