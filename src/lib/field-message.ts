/**
 * A field's error as an error summary lists it, "Label: message", in the
 * page's script and in the server's answer alike. A label that already ends
 * in a mark of its own (a question like "Wie möchten Sie das Rezept
 * bekommen?", a colon, a full stop) takes no second one: "Wie möchten Sie
 * das Rezept bekommen? Bitte wählen Sie …", never "bekommen?: Bitte …". A
 * required field's "*" is not part of its name.
 */
export function fieldMessage(label: string, message: string): string {
  const name = label.replace(/\s*\*\s*$/, '').trim();
  if (!name) return message;
  return /[?:!.]$/.test(name) ? `${name} ${message}` : `${name}: ${message}`;
}
