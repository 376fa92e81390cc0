import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// React Router's default client entry, with hydration started in a task of its own: evaluating the
// framework's modules and hydrating the page become two shorter tasks instead of one long one that
// would hold up a tap on a slow phone (Total Blocking Time). Hydration itself is a
// transition, which React splits into small pieces.
setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
