/**
 * The real Claude Code client for the end-to-end suite: installed once with npm into .cache/claude-code/
 * (gitignored) and reused while the pinned version is there.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../src/permissions.ts";
import { withLock } from "../src/store/lock.ts";
import { runProcess } from "./process.ts";

export const CLIENT_VERSION = "2.1.328";
export const CLIENT_PACKAGE = "@anthropic-ai/claude-code";
export const CLIENT_DIR = join(REPO_ROOT, ".cache", "claude-code");

const INSTALL_TIMEOUT_MS = 300_000;

/** How to start the client: the program and the arguments that come before the client's own. */
export interface ClientCommand {
  program: string;
  prefix: string[];
}

let cached: Promise<ClientCommand> | undefined;

/** Installs the pinned client when it is missing and returns how to run it. Safe to call from every test. */
export function ensureClient(): Promise<ClientCommand> {
  cached ??= locate();
  return cached;
}

async function locate(): Promise<ClientCommand> {
  const packageDir = join(CLIENT_DIR, "node_modules", ...CLIENT_PACKAGE.split("/"));
  // Test files run with `deno test --parallel` must not install into the same folder at once.
  await withLock(`${CLIENT_DIR}.lock`, () => installIfMissing(packageDir), {
    waitMs: INSTALL_TIMEOUT_MS,
    pollMs: 250,
  });
  // The postinstall step copies the platform's native binary over bin/claude.exe. Where npm skipped install
  // scripts the file is still a placeholder, and the package's node wrapper finds the native binary instead.
  const candidates: ClientCommand[] = [
    { program: join(packageDir, "bin", "claude.exe"), prefix: [] },
    { program: "node", prefix: [join(packageDir, "cli-wrapper.cjs")] },
  ];
  const problems: string[] = [];
  for (const candidate of candidates) {
    const probe = await run(candidate.program, [...candidate.prefix, "--version"]);
    if (probe.ok && probe.output.includes(CLIENT_VERSION)) return candidate;
    problems.push(`${candidate.program}: ${probe.output.trim().slice(0, 500)}`);
  }
  throw new Error(`${CLIENT_PACKAGE}@${CLIENT_VERSION} in ${CLIENT_DIR} does not start:\n${problems.join("\n")}`);
}

async function installIfMissing(packageDir: string): Promise<void> {
  if (installedVersion(packageDir) === CLIENT_VERSION) return;
  mkdirSync(CLIENT_DIR, { recursive: true });
  const npm = await run("npm", [
    "install",
    "--prefix",
    CLIENT_DIR,
    `${CLIENT_PACKAGE}@${CLIENT_VERSION}`,
    "--no-audit",
    "--no-fund",
  ]);
  if (!npm.ok) throw new Error(`npm install ${CLIENT_PACKAGE}@${CLIENT_VERSION} failed:\n${npm.output}`);
}

function installedVersion(packageDir: string): string | null {
  const manifest = join(packageDir, "package.json");
  if (!existsSync(manifest)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
    const version = (parsed as { version?: unknown }).version;
    return typeof version === "string" ? version : null;
  } catch {
    return null;
  }
}

async function run(program: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const out = await runProcess(program, { args, timeoutMs: INSTALL_TIMEOUT_MS });
    return { ok: out.code === 0 && !out.timedOut, output: out.stdout + out.stderr };
  } catch (e) {
    return { ok: false, output: e instanceof Error ? e.message : String(e) };
  }
}
