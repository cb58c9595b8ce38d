// The helpdesk delivers tickets here. Machine callers authenticate each request by an HMAC of the
// raw body (no session); the rules live in lib/intake/receive-intake.ts.
import { intakeSecret } from "@/lib/env";
import { readCappedBody, receiveIntake, SIGNATURE_HEADER } from "@/lib/intake/receive-intake";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const result = await receiveIntake({ rawBody: await readCappedBody(request), signature: request.headers.get(SIGNATURE_HEADER), secret: intakeSecret() });
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store" } });
}
