"use client";
import { useState } from "react";

/** A set-password link, shown once: the token exists nowhere else, so the admin copies it now. */
export function PasswordLinkShown({ email, linkPath, expiresAt }: { email: string; linkPath: string; expiresAt: string }) {
  const url = `${window.location.origin}${linkPath}`;
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-3 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-[13px] text-slate-900">
      <p>
        Send this link to <span className="font-medium break-all">{email}</span>. It sets their password once and works until{" "}
        {new Date(expiresAt).toISOString().slice(0, 16).replace("T", " ")} UTC. It is shown only now.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          aria-label={`Set-password link for ${email}`}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 font-mono text-[12px]"
        />
        <button
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          className="h-8 rounded-md border border-slate-300 bg-white px-3 text-[12px] font-medium text-slate-800 hover:bg-slate-50"
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
    </div>
  );
}
