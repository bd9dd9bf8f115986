/**
 * What a registered handler runs, as words: the program and its arguments. Exec form (`command` plus `args`) is taken
 * as written; a shell-form `command` is split like a plain shell line, with a leading `~/`, `$HOME/` or `${HOME}/`
 * expanded to the home (what a shell would do with the lines install and the docs write). Anything more (other
 * variables, pipes, `;`) is not guessed at: null.
 */
export interface HandlerLike {
  command: string;
  args: readonly string[];
}

export function handlerWords(handler: HandlerLike, home: string): string[] | null {
  if (handler.args.length > 0) return [handler.command, ...handler.args];
  const expanded = handler.command.trim().replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/)/, home.replace(/\/$/, ""));
  return shellWords(expanded);
}

/** Words of a plain shell command: whitespace-separated, single or double quotes; null for anything more. */
export function shellWords(command: string): string[] | null {
  if (/[$`\\;&|<>()*?~{}\n]/.test(command.replace(/'[^']*'/g, ""))) return null;
  const out: string[] = [];
  const re = /\s*(?:'([^']*)'|"([^"]*)"|([^\s'"]+))/gy;
  let m: RegExpExecArray | null;
  let rest = command;
  while ((m = re.exec(command)) !== null) {
    out.push(m[1] ?? m[2] ?? m[3] ?? "");
    rest = command.slice(re.lastIndex);
    if (re.lastIndex >= command.length) break;
  }
  return rest.trim() === "" ? out : null;
}

/** The program a handler starts (its first word), or null when the command cannot be read that way. */
export function handlerProgram(handler: HandlerLike, home: string): string | null {
  return handlerWords(handler, home)?.[0] ?? null;
}

/** A word as one POSIX shell word: as it is when it holds only plain path characters, else single-quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
