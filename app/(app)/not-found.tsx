import { NotFoundNotice } from "@/components/not-found-notice";

// notFound() from a signed-in page (a ticket that does not exist): inside the navigation bar, so the
// user can go on from here, and inside the shell's <main>, so it brings no landmark of its own.
export default function NotFound() {
  return <NotFoundNotice />;
}
