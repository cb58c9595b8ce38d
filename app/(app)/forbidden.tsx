import { ForbiddenNotice } from "@/components/forbidden-notice";

// The same 403 page, inside the navigation bar, so the user can go where they may.
export default function Forbidden() {
  return (
    <>
      <title>403 – Not allowed · Countersign</title>
      <ForbiddenNotice />
    </>
  );
}
