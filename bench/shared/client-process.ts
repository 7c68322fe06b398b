// The entry of a bench client process (the autocannon client, the lag client):
// its spec is one JSON argument, its output one JSON line on stdout. Started
// with an IPC channel by the bench, it stops when the bench goes away.

export function runAsClientProcess<Spec, Output>(run: (spec: Spec) => Promise<Output>): void {
  process.on("disconnect", () => process.exit(0));
  const main = async () => {
    const output = await run(JSON.parse(process.argv[2] ?? "") as Spec);
    // Exit only once the line is flushed: a pipe write can still be pending when exit() runs.
    await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(output)}\n`, () => resolve()));
  };
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
