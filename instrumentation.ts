// Runs once when the server starts: a bad setting or a bad agent manifest stops start-up with one
// line, instead of surfacing later as a failed request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, describeEnvError } = await import("./lib/env");
  const { agentManifest } = await import("./lib/agent/manifest");
  try {
    env();
    agentManifest();
  } catch (error) {
    console.error(describeEnvError(error) ?? (error instanceof Error ? error.message : String(error)));
    process.exit(1);
  }
}
