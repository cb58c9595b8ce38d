// A customer's data export (GDPR Art. 15), downloaded once by an admin: the download empties it and
// is audited; a second answers 409 `export_unavailable` (as does one not ready yet, or discarded by an
// erasure). The admin page lists the exports and links here.
import { z } from "zod";
import { authedRoute } from "@/lib/auth/authed";
import { downloadSubjectExport } from "@/lib/privacy/export-subject";

export const dynamic = "force-dynamic";

const ZExportId = z.string().uuid("must be an export's id");
const ZNoQuery = z.object({});

export const GET = authedRoute<typeof ZNoQuery, { params: Promise<{ id: string }> }>(
  { area: "admin", input: ZNoQuery },
  async ({ user, context }) => {
    const id = ZExportId.safeParse((await context.params).id);
    if (!id.success)
      return Response.json(
        { error: "invalid", code: "invalid", fieldErrors: { id: [id.error.issues[0]!.message] }, formErrors: [] },
        { status: 400 },
      );
    const data = await downloadSubjectExport({ exportId: id.data, actor: { id: user.id, role: user.role } });
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="countersign-customer-export-${id.data}.json"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
