import { ErrorNotice } from "./forbidden-notice";

/** The 404 page's body. */
export function NotFoundNotice() {
  return (
    <>
      <title>Not found · Countersign</title>
      <ErrorNotice code={404} title="Page not found">
        There is nothing at this address.
      </ErrorNotice>
    </>
  );
}
