import { hasDeceptiveNameCharacters } from "./characters";
import { M } from "./messages";
import { msg, type Msg } from "./message";

export const NAME_MAX = 100;

export function nameProblem(raw: string): Msg | null {
  const name = raw.trim();
  if (name === "") return msg(M.fieldEmpty);
  if (name.length > NAME_MAX) return msg(M.fieldTooLong, { max: NAME_MAX });
  // Control characters have no place in a person's name and break CSV and e-mail headers.
  if (/\p{Cc}/u.test(name)) return msg(M.invalidRequest);
  if (hasDeceptiveNameCharacters(name)) return msg(M.nameCharacters);
  return null;
}
