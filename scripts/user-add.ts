// npm run user:add -- --email E --role REVIEWER|SPECIALIST|LEAD|ADMIN [--name "Full Name"]
// The password is read from a hidden prompt, or from standard input when it is piped
// (printf '%s\n' "$PASSWORD" | npm run user:add -- …). Never from an argument: arguments end up in
// shell history and process listings.
import { parseArgs } from "node:util";
import { runScript } from "./run-script";
import { addUser, invalidUserInput } from "../lib/auth/add-user";

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
  }
  const ask = (prompt: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(prompt);
      const stdin = process.stdin;
      stdin.setRawMode(true);
      stdin.resume();
      let value = "";
      const onData = (data: Buffer) => {
        for (const ch of data.toString("utf8")) {
          if (ch === "\r" || ch === "\n") {
            stdin.setRawMode(false);
            stdin.pause();
            stdin.off("data", onData);
            process.stdout.write("\n");
            resolve(value);
            return;
          }
          if (ch === "\u0003") process.exit(130);
          if (ch === "\u007f") value = value.slice(0, -1);
          else value += ch;
        }
      };
      stdin.on("data", onData);
    });
  const first = await ask("Password: ");
  const second = await ask("Repeat password: ");
  if (first !== second) throw invalidUserInput("password", "the two passwords differ");
  return first;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: "string" }, role: { type: "string" }, name: { type: "string" }, password: { type: "string" } },
    strict: true,
  });
  if (values.password !== undefined) {
    console.error("--password is refused: type the password at the prompt or pipe it on standard input.");
    return 2;
  }
  if (!values.email || !values.role) {
    console.error('Usage: npm run user:add -- --email you@example.com --role REVIEWER|SPECIALIST|LEAD|ADMIN [--name "Full Name"]');
    return 2;
  }
  const password = await readPassword();
  const user = await addUser(
    { email: values.email, role: values.role, name: values.name, password },
    { type: "system", id: "cli:user:add" },
  );
  console.log(`Created ${user.role} ${user.email} (${user.name}).`);
  return 0;
}

runScript(main);
