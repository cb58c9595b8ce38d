// A bad setting or a bad agent manifest stops start-up with one line, instead of surfacing later as
// a failed request.
import { agentManifest } from "./lib/agent/manifest";
import { describeEnvError, env } from "./lib/env";

try {
  env();
  agentManifest();
} catch (error) {
  console.error(describeEnvError(error) ?? (error instanceof Error ? error.message : String(error)));
  process.exit(1);
}
