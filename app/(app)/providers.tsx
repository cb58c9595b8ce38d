"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/** TanStack Query for the signed-in pages. One client per browser tab (per request on the server),
 * never shared between users. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // Server-rendered pages hand their data over as initialData; don't refetch it at once.
            staleTime: 5_000,
            // A failed refresh is shown and tried again at the next interval, not hammered.
            retry: 1,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
