import { NotFoundNotice } from "@/components/not-found-notice";

// An address no page has, signed in or out: rendered in the root layout alone, so the landmark is
// its own. A page in (app) that calls notFound() gets app/(app)/not-found.tsx, inside the shell's <main>.
export default function NotFound() {
  return (
    <main className="px-4">
      <NotFoundNotice />
    </main>
  );
}
