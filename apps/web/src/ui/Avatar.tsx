import { useState } from "react";
import { Icon, type IconNode } from "./icons";

/**
 * A person's initials: the first letter of each of the first two words that have one (an emoji or
 * punctuation is skipped), with its accents, uppercase whatever the script ("Ève d'Orléans" → "ÈD").
 */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((w) => /\p{L}\p{M}*/u.exec(w)?.[0])
    .filter(Boolean)
    .slice(0, 2)
    .join("")
    .toUpperCase();

/** One of the four avatar colours (styles.css), always the same for a name. */
export const avatarHue = (name: string) => [...name].reduce((h, c) => (h * 31 + c.codePointAt(0)!) >>> 0, 0) % 4;

/**
 * Initials in a coloured disc, the person's photo in it when they have one, or an icon instead (a
 * top-up, a reconversion), beside the name it stands for (hence hidden from screen readers). A
 * photo that cannot be loaded (gone meanwhile, offline) leaves the initials.
 */
export function Avatar({ name, icon, photoUrl }: { name: string; icon?: IconNode | undefined; photoUrl?: string | null | undefined }) {
  // The address that failed: a new photo (a new address) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const photo = !icon && photoUrl && failed !== photoUrl ? photoUrl : null;
  return (
    <span className={`avatar avatar-${icon ? "x" : avatarHue(name)}`} aria-hidden="true">
      {icon ? <Icon node={icon} /> : photo ? <img src={photo} alt="" decoding="async" onError={() => setFailed(photo)} /> : initials(name)}
    </span>
  );
}
