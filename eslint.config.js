import tseslint from "typescript-eslint";
import walls from "./tools/eslint-walls.js";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "coverage/"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      // Type-aware rules read the project that covers tests too; the demo storefront's page code is in the browser project only.
      parserOptions: { project: ["./tsconfig.test.json", "./tsconfig.browser.json"], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { aisle: walls },
    rules: {
      "aisle/walls": "error",
      // A promise nobody awaits loses its failure; one handed where a plain callback is expected runs unawaited.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          // lmdb's put and remove answer a promise of their own commit. The stores call them inside
          // transaction callbacks, where the transaction's commit is what counts. Lint cannot tell
          // that use from a put outside a transaction, whose promise must be awaited: review does.
          allowForKnownSafeCalls: [{ from: "package", package: "lmdb", name: ["put", "remove"] }],
        },
      ],
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    // Tests inspect JSON responses whose shape is what they assert.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
