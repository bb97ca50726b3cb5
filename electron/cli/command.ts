/** A CLI subcommand: parses its own arguments, returns the process exit code, throws TlabError on bad input. */
export interface Command {
  name: string;
  /** One line for the top-level help. */
  usage: string;
  run(argv: string[]): Promise<number>;
}
