/** Internal signal of the generator: an element outside the supported subset (becomes a finding or a TlabError). */
export class UnsupportedElement extends Error {
  constructor(
    readonly jsonPath: string,
    readonly element: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'UnsupportedElement';
  }
}
