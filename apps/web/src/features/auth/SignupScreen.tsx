import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import { useForm, type Resolver } from "react-hook-form";
import { useMutation } from "@tanstack/react-query";
import { useLingui } from "@lingui/react";
import { M, signupProblems, type SignupValues } from "@mutua/domain";
import { useClient, useConfig } from "../../app/context";
import { Field, PasswordField } from "../../ui/Field";
import { toast } from "../../lib/toast";
import { tr } from "../../lib/i18n";
import { accountErrorMessage } from "./errors";

/** The domain's signup rules are the form's schema: one source for the app and the server. */
const resolver: Resolver<SignupValues> = async (values) => {
  const problems = signupProblems(values);
  const errors = Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, { type: "validate", message: m.id, values: m.values }]));
  return { values: Object.keys(errors).length ? {} : values, errors } as ReturnType<Resolver<SignupValues>> extends Promise<infer R> ? R : never;
};

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
  const { errors, isValid, dirtyFields, touchedFields } = form.formState;
  const signup = useMutation({
    mutationFn: (v: SignupValues) => client.signup(v),
    onSuccess: () => {
      toast.success({ id: M.accountCreated });
      void navigate("/");
    },
    onError: (e) => toast.error(accountErrorMessage(e)),
  });

  // docs/spec.md §2: with signUpUrl configured, the association's own sign-up page is used instead.
  useEffect(() => {
    if (config.signUpUrl) window.location.replace(config.signUpUrl);
  }, [config.signUpUrl]);
  if (config.signUpUrl) return null;

  const errorOf = (name: keyof SignupValues) => {
    const e = errors[name] as { message?: string; values?: Record<string, string | number> } | undefined;
    return e?.message && (dirtyFields[name] || touchedFields[name] || form.formState.isSubmitted)
      ? tr({ id: e.message, ...(e.values ? { values: e.values } : {}) })
      : undefined;
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
