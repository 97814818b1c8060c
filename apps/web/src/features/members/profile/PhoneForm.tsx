import { useState } from "react";
import { useLingui } from "@lingui/react";
import { normalizePhone, phoneProblem, type Msg, type Profile } from "@mutua/domain";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { Field } from "../../../ui/Field";
import { changeFailed, fieldRefusal } from "./errors";
import { useSetPhone } from "./queries";

/** The member's phone number, optional: written their own way, checked only for its characters and its count of digits. */
export function PhoneForm({ me }: { me: Profile }) {
  const { i18n } = useLingui();
  const save = useSetPhone();
  const [phone, setPhone] = useState(me.phone ?? "");
  // A problem shows once the member has typed; the server's refusal until they type again.
  const [typed, setTyped] = useState(false);
  const [refused, setRefused] = useState<Msg | undefined>();
  const problem = phoneProblem(phone);
  const changed = normalizePhone(phone) !== me.phone;
  const error = refused ?? (typed && problem ? problem : undefined);

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTyped(true);
        if (problem || !changed || save.isPending) return;
        save.mutate(normalizePhone(phone), {
          onSuccess: (p) => {
            setPhone(p.phone ?? "");
            setTyped(false);
            toast.success(p.phone ? i18n._("Your phone number was saved.") : i18n._("Your phone number was removed."));
          },
          onError: (err) => {
            const field = fieldRefusal(err, "phone");
            if (field) setRefused(field);
            else toast.error(changeFailed(err));
          },
        });
      }}
    >
      <Field
        label={i18n._("Phone")}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={phone}
        onChange={(e) => {
          setPhone(e.target.value);
          setTyped(true);
          setRefused(undefined);
        }}
        error={error ? tr(error) : undefined}
        hint={<p className="hint">{i18n._("Optional. A member who types your whole number can find you to pay you.")}</p>}
      />
      <button className="button primary" type="submit" disabled={!changed || Boolean(problem) || save.isPending} aria-busy={save.isPending}>
        {i18n._("Save the phone number")}
      </button>
    </form>
  );
}
