// The data directory of the server the browser tests drive (scripts/e2e-server.ts), relative to the
// project: .data/e2e on the default port, .data/e2e-<port> for a second suite on another port.
export const E2E_DEFAULT_PORT = "3210";

export function e2eDataDir(port: string = process.env.E2E_PORT ?? E2E_DEFAULT_PORT): string {
  return port === E2E_DEFAULT_PORT ? ".data/e2e" : `.data/e2e-${port}`;
}
