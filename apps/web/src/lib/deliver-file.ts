/** A download on the web; the share sheet where a browser can share files but not download them. */
export async function deliverFile(text: string, fileName: string, type: string, shareTitle = fileName): Promise<"downloaded" | "shared"> {
  const file = new File([text], fileName, { type });
  const canDownload = "download" in HTMLAnchorElement.prototype && !/Android|iPhone|iPad/i.test(navigator.userAgent);
  if (!canDownload && typeof navigator.canShare === "function" && navigator.canShare({ files: [file] })) {
    await navigator.share({ files: [file], title: shareTitle });
    return "shared";
  }
  const url = URL.createObjectURL(file);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return "downloaded";
}
