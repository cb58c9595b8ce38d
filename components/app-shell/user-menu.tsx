"use client";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useRef } from "react";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase();
}

const ITEM =
  "flex cursor-default flex-col rounded px-2 py-1.5 text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

/**
 * The signed-in user's menu: who they are, in which role, Sign out (this browser) and Sign out
 * everywhere (every session they hold, this one included). Each submits a form that sits outside the
 * menu: the menu unmounts as it closes, and a submit button inside it would be gone before the
 * browser submitted anything.
 */
export function UserMenu({
  name,
  email,
  roleLabel,
  signOutAction,
  signOutEverywhereAction,
}: {
  name: string;
  email: string;
  roleLabel: string;
  signOutAction: () => Promise<void>;
  signOutEverywhereAction: (form: FormData) => Promise<unknown>;
}) {
  const signOutForm = useRef<HTMLFormElement>(null);
  const everywhereForm = useRef<HTMLFormElement>(null);
  return (
    <>
      <form ref={signOutForm} action={signOutAction} hidden />
      {/* On success the action redirects to sign-in; a refusal leaves the person where they are. */}
      <form ref={everywhereForm} action={async (form) => void (await signOutEverywhereAction(form))} hidden />
      <DropdownMenu.Root modal={false}>
        {/* Named by its own text, "Account: Lee Lead, Lead", so the words on screen are in the name
            (a voice-control user says what they see); below sm only the initials show, and the
            name is read from the same text, visually hidden. */}
        <DropdownMenu.Trigger className="flex items-center gap-2 rounded-md py-1 pr-1.5 pl-1 text-left hover:bg-slate-100 data-[state=open]:bg-slate-100">
          <span
            aria-hidden="true"
            className="flex size-7 items-center justify-center rounded-full bg-slate-200 text-[11px] font-semibold text-slate-700"
          >
            {initials(name)}
          </span>
          <span className="sr-only leading-tight sm:not-sr-only sm:block">
            <span className="sr-only">Account: </span>
            <span className="block max-w-40 truncate text-[13px] font-medium text-slate-900">{name}</span>
            <span className="sr-only">, </span>
            <span className="block text-[11px] text-slate-500">{roleLabel}</span>
          </span>
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5 text-slate-400">
            <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none"
          >
            <DropdownMenu.Label className="px-2 py-1.5">
              <span className="block truncate font-medium text-slate-900">{name}</span>
              <span className="block truncate text-xs text-slate-500">{email}</span>
              <span className="mt-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-medium text-slate-700">
                {roleLabel}
              </span>
            </DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item onSelect={() => signOutForm.current?.requestSubmit()} className={ITEM}>
              Sign out
            </DropdownMenu.Item>
            <DropdownMenu.Item
              onSelect={() => everywhereForm.current?.requestSubmit()}
              aria-describedby="sign-out-everywhere-help"
              className={ITEM}
            >
              Sign out everywhere
              {/* A description, not part of the name: the item is called "Sign out everywhere". */}
              <span id="sign-out-everywhere-help" aria-hidden="true" className="text-[11px] text-slate-500">
                Ends your sessions on every device
              </span>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}
