// The walls between folders, enforced as an ESLint rule: which folder may
// import which, and which folder alone owns each outside library.
// docs/ARCHITECTURE.md explains them; this file is what holds them.
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository, wherever eslint runs from: the walls name folders from here. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** An outside library, and the only folders whose code may import it. */
const OWNED_PACKAGES = {
  "uWebSockets.js": ["src/http/", "bench/load/raw-uws.ts"],
  lmdb: ["src/stores/"],
  "onnxruntime-node": ["src/embeddings/"],
  "onnx-proto": ["src/embeddings/"],
  flexsearch: ["src/search/"],
  piscina: ["src/pool/", "workers/"],
  "@nats-io/transport-node": ["src/cluster/"],
  "@nats-io/jetstream": ["src/cluster/"],
  "@nats-io/nats-core": ["src/cluster/"],
  "@nats-io/obj": ["src/cluster/"],
};

/** Folders whose code must not import the listed ones. */
const FORBIDDEN = [
  {
    from: "src/http/",
    to: ["src/recs/", "src/search/", "src/similar/", "src/lists/", "src/embeddings/", "src/demo/", "src/eval/", "workers/"],
    why: "the HTTP thread validates, answers from the cache and hands work to the pool; it never ranks, searches or embeds",
  },
  { from: "src/", to: ["workers/"], why: "workers/ holds thread entries only; the code they run lives in src/" },
  { from: "bench/", to: ["workers/"], why: "benchmarks call the code in src/ that the workers run" },
];

/** src/core is pure: it imports only itself, no package and no Node module. */
const PURE = "src/core/";

/** Code that runs in browsers: it imports only from the listed folders, no package and no Node module. */
const BROWSER_CODE = [
  {
    folder: "client/src/",
    may: ["client/src/"],
    why: "the typed client runs in browsers and in Node on fetch alone, and could be published as its own package",
  },
  { folder: "storefront/", may: ["storefront/", "client/src/"], why: "the demo storefront runs in browsers on the typed client" },
];

const isRelative = (specifier) => specifier.startsWith(".");
const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
const within = (path, folders) => folders.some((folder) => path === folder || path.startsWith(folder));

function problem(file, specifier, target) {
  const browser = BROWSER_CODE.find(({ folder }) => file.startsWith(folder));
  if (browser && (!isRelative(specifier) || !within(target, browser.may))) {
    return `${browser.folder} imports only ${browser.may.join(", ")} ("${specifier}"): ${browser.why}`;
  }
  if (!isRelative(specifier)) {
    if (file.startsWith(PURE)) return `src/core is pure logic: it imports no package or Node module ("${specifier}")`;
    const owners = OWNED_PACKAGES[packageName(specifier)];
    if (owners && !within(file, owners)) return `only ${owners.join(", ")} may import ${packageName(specifier)}`;
    return null;
  }
  if (file.startsWith(PURE) && !target.startsWith(PURE)) return `src/core is pure logic: it imports only src/core (not ${target})`;
  for (const wall of FORBIDDEN) {
    if (file.startsWith(wall.from) && within(target, wall.to)) return `${wall.from} must not import ${target}: ${wall.why}`;
  }
  return null;
}

/** The code the walls hold for; tests may reach any part they test. */
const WALLED = ["src/", "workers/", "bench/", ...BROWSER_CODE.map(({ folder }) => folder)];

const wallsRule = {
  meta: {
    type: "problem",
    docs: { description: "Keep imports within the walls between folders (docs/ARCHITECTURE.md)" },
    schema: [],
  },
  create(context) {
    const toRepoPath = (path) => relative(ROOT, path).split("\\").join("/");
    const file = toRepoPath(context.filename);
    if (!within(file, WALLED)) return {};
    const checkSource = (source) => {
      // A plain string, or a template literal without expressions: import(`../recs/x.js`).
      const specifier =
        source?.type === "Literal"
          ? source.value
          : source?.type === "TemplateLiteral" && source.expressions.length === 0
            ? source.quasis[0].value.cooked
            : null;
      if (typeof specifier !== "string") return;
      const message = problem(file, specifier, toRepoPath(resolve(dirname(context.filename), specifier)));
      if (message) context.report({ node: source, message });
    };
    const check = (node) => checkSource(node.source);
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      // typeof import("lmdb") in a type.
      TSImportType: (node) => checkSource(node.argument?.type === "TSLiteralType" ? node.argument.literal : node.argument),
      // require() and createRequire() reach around import declarations, and so around the walls.
      CallExpression(node) {
        const callee = node.callee.type === "Identifier" ? node.callee.name : null;
        if (callee === "require" || callee === "createRequire") {
          context.report({ node, message: `${callee}() is not used in this ESM code base: import, so the walls see what crosses them` });
        }
      },
    };
  },
};

export default { rules: { walls: wallsRule } };
