// The top of the pages about one document's versions (a version, its editor, two compared): where the
// page sits under the document, its title, and a line of facts about the version.
import type { ReactNode } from "react";
import { Breadcrumbs } from "@/components/breadcrumbs";

export function DocumentHeader(props: {
  docKey: string;
  /** A version the trail passes through on the way to this page (the editor's), linked. */
  version?: number;
  /** The page's own crumb. */
  current: string;
  title: string;
  /** Shown between the trail and the title (the version's citation name). */
  above?: ReactNode;
  /** The line under the title: the state's badge and what goes with it. */
  facts?: ReactNode;
  children?: ReactNode;
}) {
  const key = encodeURIComponent(props.docKey);
  const trail = [
    { href: "/documents", label: "Policies" },
    { href: `/documents/${key}`, label: props.docKey },
    ...(props.version === undefined ? [] : [{ href: `/documents/${key}/${props.version}`, label: `v${props.version}` }]),
  ];
  return (
    <header>
      <Breadcrumbs trail={trail} current={props.current} />
      {props.above}
      <h1 className="text-lg font-semibold tracking-tight wrap-anywhere text-slate-900">{props.title}</h1>
      {props.facts ? <p className="mt-1 flex flex-wrap items-center gap-2 text-[13px] text-slate-600">{props.facts}</p> : null}
      {props.children}
    </header>
  );
}
