// The order the test files start in. With durations from an earlier run (Vitest's cache), the
// longest first, as Vitest does. Without them (a fresh checkout, as in CI) Vitest starts the largest
// files first, which puts a short file of long tests – a property test, one that starts servers –
// last, alone on one worker while the others are done: the integration files, the slow kind, start
// first here, largest first among them, and the unit files fill in after.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class IntegrationFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (spec: TestSpecification) =>
      !!this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`);
    if (sorted.every(timed)) return sorted;
    const integration = (spec: TestSpecification) => spec.moduleId.includes(".integration.");
    return [...sorted.filter(integration), ...sorted.filter((spec) => !integration(spec))];
  }
}
