"use client";
// One person's controls on the Users page: their role, a new set-password link, deactivate (asked
// twice) or reactivate. Each answer is spoken beside the controls; the page reloads its list.
import { useActionState, useState } from "react";
import { formMessage, type TFormMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TUserActiveChange } from "@/lib/auth/set-user-active";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/contracts/roles";
import { changeUserRoleAction, reissuePasswordLinkAction, setUserActiveAction } from "./actions";
import { PasswordLinkShown } from "./password-link-shown";

const BUTTON =
  "h-7 rounded-md border border-slate-300 bg-white px-2 text-[12px] font-medium whitespace-nowrap text-slate-800 shadow-xs hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";
const WORDS = { forbidden: "Only an admin may change people.", invalid: "That change could not be read." };

function Said({ message }: { message: TFormMessage | null }) {
  if (!message) return null;
  return (
    <span role="status" className={`basis-full text-[12px] ${message.tone === "ok" ? "text-emerald-800" : "text-red-700"}`}>
      {message.text}
    </span>
  );
}

export function UserControls({
  user,
  cannotDeactivate,
}: {
  user: { id: string; email: string; role: Role; active: boolean };
  cannotDeactivate: string | null;
}) {
  const [role, setRole] = useState<Role>(user.role);
  const [confirming, setConfirming] = useState(false);
  const [roleState, roleAction, rolePending] = useActionState(
    (_p: TActionResult<{ from: Role; to: Role }> | null, form: FormData) => changeUserRoleAction(form),
    null,
  );
  const [activeState, activeAction, activePending] = useActionState(async (_p: TActionResult<TUserActiveChange> | null, form: FormData) => {
    setConfirming(false);
    return setUserActiveAction(form);
  }, null);
  const [linkState, linkAction, linkPending] = useActionState(
    (_p: TActionResult<{ email: string; linkPath: string; expiresAt: string }> | null, form: FormData) => reissuePasswordLinkAction(form),
    null,
  );

  const roleSaid = formMessage(
    roleState,
    (ok) => ({ tone: "ok", text: ok.from === ok.to ? "Role unchanged." : `Now ${ROLE_LABELS[ok.to]}.` }),
    WORDS,
  );
  const activeSaid = formMessage<TUserActiveChange>(
    activeState,
    (ok) =>
      ok.changed
        ? {
            tone: "ok",
            text: user.active
              ? "Reactivated."
              : `Deactivated${ok.ticketsUnassigned ? `; ${ok.ticketsUnassigned} ticket(s) unassigned` : ""}.`,
          }
        : null,
    WORDS,
  );
  const linkSaid = formMessage(linkState, () => null, WORDS);

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <form action={roleAction} aria-label={`Change the role of ${user.email}`} className="flex items-center gap-1">
        <input type="hidden" name="userId" value={user.id} />
        <label htmlFor={`role-${user.id}`} className="sr-only">
          Role of {user.email}
        </label>
        <select
          id={`role-${user.id}`}
          name="role"
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          disabled={!user.active}
          className="h-7 rounded-md border border-slate-300 bg-white px-1.5 text-[12px] text-slate-900 disabled:opacity-50"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
        <button type="submit" disabled={rolePending || role === user.role || !user.active} className={BUTTON}>
          {rolePending ? "Saving…" : "Change role"}
        </button>
      </form>

      {user.active ? (
        <form action={linkAction}>
          <input type="hidden" name="userId" value={user.id} />
          <button type="submit" disabled={linkPending} aria-label={`New link for ${user.email}`} className={BUTTON}>
            {linkPending ? "Making…" : "New link"}
          </button>
        </form>
      ) : null}

      <form action={activeAction} className="flex items-center gap-1">
        <input type="hidden" name="userId" value={user.id} />
        <input type="hidden" name="active" value={user.active ? "false" : "true"} />
        {user.active && !confirming ? (
          <button
            type="button"
            disabled={cannotDeactivate !== null}
            title={cannotDeactivate ?? undefined}
            onClick={() => setConfirming(true)}
            aria-label={`Deactivate ${user.email}`}
            className={BUTTON}
          >
            Deactivate
          </button>
        ) : user.active ? (
          <>
            <button
              type="submit"
              disabled={activePending}
              aria-label={`Confirm deactivate ${user.email}`}
              className={`${BUTTON} border-red-700 bg-red-700 text-white hover:bg-red-800`}
            >
              {activePending ? "Deactivating…" : "Confirm deactivate"}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={BUTTON}>
              Cancel
            </button>
          </>
        ) : (
          <button type="submit" disabled={activePending} aria-label={`Reactivate ${user.email}`} className={BUTTON}>
            {activePending ? "Reactivating…" : "Reactivate"}
          </button>
        )}
      </form>
      <Said message={roleSaid ?? activeSaid ?? linkSaid} />
      {linkState?.status === "ok" ? (
        <div className="basis-full">
          <PasswordLinkShown
            key={linkState.linkPath}
            email={linkState.email}
            linkPath={linkState.linkPath}
            expiresAt={linkState.expiresAt}
          />
        </div>
      ) : null}
    </div>
  );
}
