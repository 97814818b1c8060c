/** The member closed the Authentication dialog: the operation stops without an error message. */
export class OperationCanceled extends Error {
  constructor() {
    super("Operation canceled");
  }
}
