/**
 * A member's photo as the app sends it: the picture they chose (a phone's camera gives 12
 * megapixels and more), cropped to its centred square and drawn at PHOTO_SIDE pixels, encoded as a
 * JPEG of at most PHOTO_TARGET_BYTES. Loaded only when a photo is picked (ProfilePhoto imports it).
 */

/** Twice the largest avatar drawn (96 CSS pixels) and then some: sharp on any phone's screen. */
export const PHOTO_SIDE = 256;
/** Well under the server's 64 KB, whatever the picture: a face at 256 pixels takes 10 to 25 KB. */
export const PHOTO_TARGET_BYTES = 40 * 1024;
/** From good to merely recognisable: each is tried until the file is small enough. */
const QUALITIES = [0.85, 0.75, 0.65, 0.5, 0.35];

/** The picture could not be read as an image (a HEIC where the browser has no decoder, a damaged file). */
export class UnreadableImage extends Error {}

/** The largest square at the middle of a width × height picture: where to cut it from. */
export function centredSquare(width: number, height: number): { x: number; y: number; side: number } {
  const side = Math.min(width, height);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), side };
}

/** The first encoding that fits in `maxBytes`, trying the qualities from the best; null when none does. */
export async function smallEnough(encode: (quality: number) => Promise<Blob | null>, maxBytes: number): Promise<Blob | null> {
  for (const quality of QUALITIES) {
    const blob = await encode(quality);
    if (blob && blob.size <= maxBytes) return blob;
  }
  return null;
}

/** The picture decoded, upright as the camera held it (its EXIF orientation applied). */
async function decode(file: Blob): Promise<ImageBitmap | HTMLImageElement> {
  if (typeof createImageBitmap === "function") {
    try {
      return await createImageBitmap(file, { imageOrientation: "from-image" });
    } catch {
      throw new UnreadableImage();
    }
  }
  // Older browsers: an <img> decodes it, upright as well (image-orientation: from-image is the default).
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode().catch(() => {
      throw new UnreadableImage();
    });
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The photo to upload, as base64 (the API's form), from the picture the member chose. */
export async function photoFromFile(file: Blob): Promise<string> {
  const image = await decode(file);
  const width = "naturalWidth" in image ? image.naturalWidth : image.width;
  const height = "naturalHeight" in image ? image.naturalHeight : image.height;
  if (!width || !height) throw new UnreadableImage();
  const { x, y, side } = centredSquare(width, height);
  const canvas = document.createElement("canvas");
  canvas.width = PHOTO_SIDE;
  canvas.height = PHOTO_SIDE;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new UnreadableImage();
  // A JPEG has no transparency: a transparent PNG's background becomes white, not black.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, PHOTO_SIDE, PHOTO_SIDE);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, x, y, side, side, 0, 0, PHOTO_SIDE, PHOTO_SIDE);
  if ("close" in image) image.close();
  const blob = await smallEnough((quality) => new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality)), PHOTO_TARGET_BYTES);
  if (!blob) throw new UnreadableImage();
  return base64(new Uint8Array(await blob.arrayBuffer()));
}

/** Bytes as base64, in slices (one String.fromCharCode call of 40 000 arguments may overflow the stack). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x2000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  return btoa(binary);
}
