// ESLint (issue 26 item 6): the recommended rules of ESLint and typescript-eslint, React's rules of
// hooks, and jsx-a11y's checks for labels, roles and alt text. `npm test` runs it, with Prettier.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "app/generated/", ".react-router/", "node_modules/", "test-results/", "playwright-report/", "public/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // react-hooks 7 also brings the React Compiler's rules (set-state-in-effect, refs…); we do not
      // compile with it, and a state set from an effect that reads the DOM after hydration is how our
      // forms learn that JavaScript is there.
      ...jsxA11y.flatConfigs.recommended.rules,
      // After a submission without JavaScript the page comes back whole; autofocus is how focus lands on
      // the first field in error (or the refusal) there, which is what WCAG asks for, not a surprise.
      "jsx-a11y/no-autofocus": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Our validation rules name the control characters they refuse, on purpose.
      "no-control-regex": "off",
      // Zod comes through ~/utils/validation/zod, which keeps it from probing eval in the browser (CSP).
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: "Import { z } from ~/utils/validation/zod.", allowTypeImports: true }] }],
    },
  },
  { files: ["app/utils/validation/zod.ts"], rules: { "no-restricted-imports": "off" } },
  {
    // Test doubles of JSON protocols (Stripe, OpenAI) and HTTP helpers read untyped bodies; Playwright's
    // fixtures are `use(…)` callbacks with an empty pattern when they need no other fixture.
    files: ["test/**", "e2e/**", "bench/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "no-empty-pattern": "off", "react-hooks/rules-of-hooks": "off" },
  },
  { files: ["**/*.{js,mjs}"], languageOptions: { globals: { ...globals.node } }, rules: { "no-control-regex": "off" } },
);
