import { ForbiddenNotice } from "@/components/forbidden-notice";

// Rendered by forbidden() (requireRole) for a signed-in user whose role may not open the page; the
// response status is 403. Pages inside the signed-in shell get app/(app)/forbidden.tsx instead.
export default function Forbidden() {
  return (
    <main className="px-4">
      <title>403 – Not allowed · Countersign</title>
      <ForbiddenNotice />
    </main>
  );
}
