import { isNative } from "./native/platform";

/**
 * Hands a file to the member: a download on the web; the share sheet where a browser can share
 * files but not download them; in the Android/iOS shells, a file written to the app's cache and
 * offered through the system share sheet (save to files, mail, …).
 */
export async function deliverFile(data: string | Blob, fileName: string, type: string, shareTitle = fileName): Promise<"downloaded" | "shared"> {
  const file = new File([data], fileName, { type });
  if (isNative()) {
    await shareNatively(file, shareTitle);
    return "shared";
  }
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

async function shareNatively(file: File, title: string): Promise<void> {
  const [{ Filesystem, Directory }, { Share }] = await Promise.all([import("@capacitor/filesystem"), import("@capacitor/share")]);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const { uri } = await Filesystem.writeFile({ path: file.name, data: btoa(binary), directory: Directory.Cache });
  await Share.share({ title, files: [uri] });
}
