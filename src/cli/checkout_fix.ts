/** A fix line as a checkout runs it: the `cliffhanger-bin <command>` word becomes `deno task cli <command>`. */
export function forCheckout(fix: string): string {
  // the command word only: a path that ends in cliffhanger-bin (a launcher, a binary) stays as it is
  return fix.replace(/(?<![\w./-])cliffhanger-bin (?=[a-z])/g, "deno task cli ");
}
