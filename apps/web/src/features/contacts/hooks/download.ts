/** Starts a download through a hidden anchor with the download attribute. */
export function triggerDownload(href: string, fileName = ''): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
