/**
 * yargs lays --help out with cliui, which puts a right-aligned note (`[aliases: ls]`, `[boolean] [default: true]`)
 * on a description's last line when it fits: where it fits with no room to spare, the two are written touching
 * ("List recorded violations[aliases: ls]"). Such a note is moved to a line of its own, ending where it ended, as
 * cliui lays out a note that does not fit.
 */
const TOUCHING_NOTE = /^(.*\S)(\[(?:aliases|boolean|string|number|array|count|choices|default|required|deprecated)\b.*\])$/gm;

/** `help` with each note that touches its description moved to the next line, right-aligned as before. */
export function spacedHelpNotes(help: string): string {
  return help.replace(TOUCHING_NOTE, (line: string, text: string, note: string) => `${text}\n${note.padStart(line.length)}`);
}
