import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '@divan/core';

function isSquare(file: File): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    const src = URL.createObjectURL(file);
    img.onload = () => {
      URL.revokeObjectURL(src);
      resolve(img.naturalWidth === img.naturalHeight);
    };
    img.onerror = () => {
      URL.revokeObjectURL(src);
      resolve(true); // let the server decide on images the browser can't read
    };
    img.src = src;
  });
}

/** Checks an image before uploading it: a 2 MB photo on a slow connection is a long wait for a "no". */
export async function imageProblem(file: File, { square = false } = {}): Promise<string | null> {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Sube una imagen PNG, JPG o WebP.';
  if (file.size > IMAGE_MAX_BYTES) return 'La imagen no puede pesar más de 2 MB.';
  if (square && !(await isSquare(file))) return 'El logo debe ser cuadrado (mismo ancho que alto).';
  return null;
}
