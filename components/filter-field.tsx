// The pieces of a list page's filter form (documents, ledger, audit): a field with its label above and
// its error below, the error and any hint tied to the control so a screen reader says them with it,
// and the row that applies the filters or clears them.
import Form from "next/form";
import Link from "next/link";
import type { ReactNode } from "react";

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-[13px] text-slate-900 aria-[invalid=true]:border-red-500";

/** A list page's filter form: a search landmark sent as a GET to the page's address (next/form navigates on the client). */
export function FilterForm(props: { action: string; label: string; className: string; children: ReactNode }) {
  return (
    <Form action={props.action} role="search" aria-label={props.label} className={props.className}>
      {props.children}
    </Form>
  );
}

/** What every field of one form is given, by the field's name: the form's prefix, its value and errors. */
export function filterFieldsOf(form: string, values: Record<string, string>, errors: Record<string, string[] | undefined>) {
  return (name: string) => ({ form, name, value: values[name], errors: errors[name] });
}

/** What a field's control is given: spread on the input or select. */
export interface TFilterControl {
  id: string;
  name: string;
  defaultValue: string | undefined;
  className: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * One filter: `form` prefixes the ids (`<form>-<name>`, its error `<form>-<name>-error`), `errors` are
 * the field's messages from the page's parse, `hint` words read with the control but not shown.
 */
export function FilterField(props: {
  form: string;
  name: string;
  label: ReactNode;
  value: string | undefined;
  errors: string[] | undefined;
  hint?: string;
  className: string;
  children: (control: TFilterControl) => ReactNode;
}) {
  const id = `${props.form}-${props.name}`;
  const invalid = Boolean(props.errors?.length);
  const describedBy = [props.hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(" ");
  const control: TFilterControl = {
    id,
    name: props.name,
    defaultValue: props.value,
    className: CONTROL,
    ...(invalid ? { "aria-invalid": true } : {}),
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
  };
  return (
    <div className={props.className}>
      <label htmlFor={id} className="mb-1 block text-[12px] font-medium text-slate-600">
        {props.label}
      </label>
      {props.children(control)}
      {props.hint ? (
        <span id={`${id}-hint`} className="sr-only">
          {props.hint}
        </span>
      ) : null}
      {invalid ? (
        <p id={`${id}-error`} className="mt-1 text-[12px] text-red-700">
          {props.errors!.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** Apply, and a link back to the unfiltered list while any filter is set. */
export function FilterActions(props: { submit: string; clear: string; clearHref: string; filtered: boolean; className: string }) {
  return (
    <div className={props.className}>
      <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-[13px] font-medium text-white hover:bg-slate-800">
        {props.submit}
      </button>
      {props.filtered ? (
        <Link href={props.clearHref} className="text-[13px] font-medium text-indigo-700 hover:underline">
          {props.clear}
        </Link>
      ) : null}
    </div>
  );
}
