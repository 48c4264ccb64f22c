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

/** The timeline's canvas as PNG (the chart as drawn, at the device's pixel ratio). */
export function getTimelineCanvas(): HTMLCanvasElement | null {
  return document.querySelector<HTMLCanvasElement>('[data-testid="timeline"] canvas');
}

export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The timeline could not be drawn as PNG'))),
      'image/png',
    ),
  );
}
