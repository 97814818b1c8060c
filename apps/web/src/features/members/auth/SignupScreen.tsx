import { useEffect } from "react";
import { Link, useNavigate } from "../../../lib/router";
import { useForm, useWatch, type Resolver } from "react-hook-form";
import { useMutation } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, normalizeEmail, signupProblems, type SignupValues } from "@mutua/domain";
import { useClient, useConfig } from "../../../lib/context";
import { Field, PasswordField } from "../../../ui/Field";
import { toast } from "../../../lib/toast";
import { setLoginEmail } from "../../../lib/storage";
import { tr } from "../../../lib/i18n";
import { accountErrorMessage } from "./account-errors";

/** The domain's signup rules are the form's schema: one source for the app and the server. */
const resolver: Resolver<SignupValues> = async (values) => {
  const problems = signupProblems(values);
  const errors = Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, { type: "validate", message: m.id, values: m.values }]));
  return { values: Object.keys(errors).length ? {} : values, errors } as ReturnType<Resolver<SignupValues>> extends Promise<infer R> ? R : never;
};

/** The form's fields, top to bottom. */
const FIELD_ORDER: readonly (keyof SignupValues)[] = ["email", "firstName", "lastName", "password", "confirmPassword"];

export function SignupScreen() {
  const { i18n } = useLingui();
  const config = useConfig();
  const client = useClient();
  const navigate = useNavigate();
  const form = useForm<SignupValues>({
    resolver,
    mode: "onChange",
    defaultValues: { email: "", firstName: "", lastName: "", password: "", confirmPassword: "" },
  });
  const { isValid, dirtyFields, touchedFields } = form.formState;
  const values = useWatch({ control: form.control });
  const signup = useMutation({
    // The app's language goes with it, as at sign-in: the confirmation mail is written in it.
    mutationFn: ({ email, firstName, lastName, password }: SignupValues) =>
      client.call("signup", { body: { email, firstName, lastName, password, language: i18n.locale } }),
    onSuccess: (_, v) => {
      // Until the link is opened the member cannot sign in: said with the spec's words (signing in
      // before says it again).
      toast.success(
        { id: M.accountCreated },
        i18n._("We sent a link to {email}: open it to confirm your address, then sign in.", { email: normalizeEmail(v.email) }),
      );
      // The login page opens on the new member's address.
      setLoginEmail(normalizeEmail(v.email));
      void navigate("/");
    },
    onError: (e) => toast.error(accountErrorMessage(e)),
  });

  // docs/spec.md §2: with signUpUrl configured, the association's own sign-up page is used instead.
  useEffect(() => {
    if (config.signUpUrl) window.location.replace(config.signUpUrl);
  }, [config.signUpUrl]);
  if (config.signUpUrl) return null;

  // A field's message shows once the member has been in it, or has gone past it to a later field:
  // a first name left empty says so when the last name is typed, not only if the field was visited.
  const problems = signupProblems(values as SignupValues);
  const reached = (name: keyof SignupValues) =>
    form.formState.isSubmitted || FIELD_ORDER.slice(FIELD_ORDER.indexOf(name)).some((f) => dirtyFields[f] || touchedFields[f]);
  const errorOf = (name: keyof SignupValues) => {
    const m = problems[name];
    return m && reached(name) ? tr(m) : undefined;
  };

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={form.handleSubmit((v) => signup.mutate(v))} noValidate>
        {config.loginLogoUrl && <img className="login-logo" src={config.loginLogoUrl} alt={config.appName} />}
        <h1>{i18n._("Sign up")}</h1>
        <Field
          label={i18n._("Email")}
          type="text"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          error={errorOf("email")}
          {...form.register("email")}
        />
        <Field label={i18n._("Firstname")} autoComplete="given-name" error={errorOf("firstName")} {...form.register("firstName")} />
        <Field label={i18n._("Lastname")} autoComplete="family-name" error={errorOf("lastName")} {...form.register("lastName")} />
        <PasswordField
          label={i18n._("Password")}
          autoComplete="new-password"
          error={errorOf("password")}
          {...form.register("password", { deps: ["confirmPassword"] })}
        />
        <PasswordField
          label={i18n._("Confirm password")}
          autoComplete="new-password"
          error={errorOf("confirmPassword")}
          {...form.register("confirmPassword")}
        />
        <button className="button primary wide" type="submit" disabled={!isValid || signup.isPending} aria-busy={signup.isPending}>
          {i18n._("Sign up")}
        </button>
        <div className="auth-links">
          <Link to="/">{i18n._("Already have an account ?")}</Link>
        </div>
      </form>
    </main>
  );
}
