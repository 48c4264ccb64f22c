// Saves a text or a blob as a file: an object URL on a temporary link, revoked after the click.

/** Starts the download of `content` as `fileName`. */
export function downloadFile(content: string | Blob, fileName: string, mimeType: string): void {
  const blob = typeof content === 'string' ? new Blob([content], { type: mimeType }) : content;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has handed the blob to the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name from the transcript's, without its folders and extension, plus a suffix. */
export function getExportFileName(transcriptName: string, suffix: string): string {
  const base =
    transcriptName
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(jsonl|json|txt)$/i, '') || 'transcript';
  return `${base}${suffix}`;
}

/**
 * An SVG picture as PNG at `scale` × its size (2: sharp on a high-density screen and in slides).
 * Drawn from a blob URL the page's CSP allows (`img-src blob:`); an SVG without external
 * references leaves the canvas untainted, so it can be read back.
 */
export async function svgToPng(svg: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.naturalWidth * scale);
    canvas.height = Math.round(image.naturalHeight * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('The timeline could not be drawn as PNG (no 2D canvas)');
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('The timeline could not be drawn as PNG'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
