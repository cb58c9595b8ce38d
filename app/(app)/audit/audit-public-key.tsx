import { listCheckpoints } from "@/lib/audit/list-checkpoints";

/**
 * The public half of the audit signing key, for whoever checks an export or a checkpoint file: the
 * same key the signed checkpoints endpoint publishes, which only the helpdesk can call. Read only:
 * an instance without a key shows none rather than creating one.
 */
export async function AuditPublicKey() {
  const { publicKey, keyId } = await listCheckpoints({ limit: 1 });
  return (
    <details className="mb-4 text-[13px] text-slate-600">
      <summary className="cursor-pointer font-medium text-indigo-700 hover:underline">
        The audit public key, to check exports and checkpoints with
      </summary>
      {publicKey ? (
        <div className="mt-2 max-w-xl space-y-1">
          <p>
            Key id <code className="font-mono text-[12px]">{keyId}</code>. Keep your own copy, taken once: a check against the key on this
            machine only proves what this machine says.
          </p>
          <label htmlFor="audit-public-key" className="sr-only">
            Audit public key (PEM)
          </label>
          <textarea
            id="audit-public-key"
            readOnly
            rows={3}
            spellCheck={false}
            defaultValue={publicKey}
            className="block w-full resize-none rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-[12px] text-slate-900"
          />
        </div>
      ) : (
        <p className="mt-2">No signing key yet: the first signed checkpoint creates it, within a minute while a worker runs.</p>
      )}
    </details>
  );
}
